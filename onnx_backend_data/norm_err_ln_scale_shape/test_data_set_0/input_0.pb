Bx0J`;…HBD÷Ãe©Cq±LÄAèÃ{VÄd­„CëÍ#ÄøGÄKCCÄÑ¨CØ˜1Ä—rB`.XDšàÃ7
-CdŸ[D³uÄÕ¸1ÄÇ7D¦î'C•õCjŸTDBx_D