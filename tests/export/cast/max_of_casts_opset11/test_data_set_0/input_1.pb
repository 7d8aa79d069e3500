
Bx1J
QоАл╕яyмhц