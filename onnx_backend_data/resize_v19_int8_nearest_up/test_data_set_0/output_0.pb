
ByJŒúúpÕÕ‹äúúpÕÕ‹äúúpÕÕ‹ä®®uuþ½®®uuþ½ööcÉÉ"'ööcÉÉ"'ööcÉÉ"'‹‹EÉÉA`‹‹EÉÉA`UU¢aad_UU¢aad_UU¢aad_ÄÄ£SSã/ÄÄ£SSã/pp		»pp		»pp		»¯@@s¯@@s