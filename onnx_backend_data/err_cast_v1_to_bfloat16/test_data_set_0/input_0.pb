Bx0JASÄ
Š*D»5Ä