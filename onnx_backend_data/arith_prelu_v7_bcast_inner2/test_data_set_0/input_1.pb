BslopeJP|TÃ-ÄGçrDyåˆCòhD~88Ãº¢ÂÃw
Ã§ÑfD–œeÄ.Ý¦C¡ÄÑüD6sC°ËQDÎÄ¢µC‘ÙDõ7±Ã•ÚD