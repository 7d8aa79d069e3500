
BloJ­ß