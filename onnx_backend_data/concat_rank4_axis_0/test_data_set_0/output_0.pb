ByJ O
ÞC’âC¯Æ1D3 CZ.UÃÎûCK:Ä%ÌêCôÈ&Diì-CÎiÄð;·C>;hD>ò4C®üD@Ø«ÃrW¿CáºVÄ/òpDÿ
DÊ(9C–”9DÍÃÃÇýPDZzÁÇ2C“¾bDÎÃI´ÄÏ#kD.6ùÃ¢3C*37ÄMÎ]DÔýÖCÈï‹CXÕFC°¯PÄŸæND;a^DRÂÄíZD@ïD;HlÃ‹ÎCTðwDUÂéÃZªÃBžC÷Ç‡Ã	qÃÔz5ÃþüXCG"C¥e&ÄA:XÃÎ¶œÃƒîBWDI¤÷C!(³Ã2ñãBõ<DÒ"DÚÄçËiCi`DÒ¹7D¯¾CcE_CL¾ÄÊØeÄ