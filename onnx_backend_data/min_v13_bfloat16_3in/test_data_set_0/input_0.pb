Bx0J*Ä"DÃxÄ(DDµCòÃUDþÂqÄpDD¦Â¯Ã
ÃCDaD2D;Ã