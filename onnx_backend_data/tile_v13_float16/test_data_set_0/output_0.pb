	
ByJHfbI`wcfbI`wcfbI`wc aZbâ aZbâ aZbâfbI`wcfbI`wcfbI`wc aZbâ aZbâ aZbâ