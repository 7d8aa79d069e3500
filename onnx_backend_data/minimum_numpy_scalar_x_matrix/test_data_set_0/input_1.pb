Bx1J–Z› Z…4på/¢
ËkibcvO