
ByJTtYtYtYtYtYtYtYtYtY$ß$PÉHN]tYtYtY?bøØ¶àIátYtYtY©`×á3ÙçâtYtYtYtYtYtYtYtYtYtYtYtYtYtYtY