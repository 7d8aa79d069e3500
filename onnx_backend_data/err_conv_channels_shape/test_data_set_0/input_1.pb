Bx1JIùOÄ”ëÃ{â¬C6oÄâ+Ãc„Â-YGCl·B¬F$Ä¦ð4DµrÄé‘vDüiÃâü-ÄYpÙÃ
ótDžÒÃqD…j5CQd#DYñ1ÄóKøÂžùaÃËwMÄ¬k³ÃiZ!D¨‡YÄ7UvD„¿DT»8D“vŽÃCÚÄ†_2DÈ´ýÃu¦Ãdw@Ä