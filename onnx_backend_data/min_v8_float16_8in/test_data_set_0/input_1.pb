	
Bx1J$y\Ðã"Ü/aZ\(ãXWÃa£Û“àÎá4Ì£SFb°TbË×Uâ