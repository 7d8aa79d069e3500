
Bx0J*Va?с╜▌╪1Z■Z`\_Fj╪▐Ъ╘Кc(TE]$cub\nриbпXРc