
BhiJ¦ß