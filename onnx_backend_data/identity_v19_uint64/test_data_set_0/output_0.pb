ByJ0£<(øHNyoÅHK\G¦	Fgž€5AÞG
­œÚ¤ÕÄÛÚ„ºhDGS7v%