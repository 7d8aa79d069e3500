ByJ–Z› Z…4på/¢
ËkibcvO