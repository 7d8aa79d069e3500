ByJ`àiúC»ÈÖiÈ#ÞÇû­ÈëJwDOŠHw DFŽE”8åCÏÎEHXC6ÃHI²‘È,Z
ÉôhOC¿ŠÉF;&(Ç¼:_GÇ‘Dìö;C¤˜ÉD;D}NÒA