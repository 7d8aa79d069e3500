ByJ}ÃXCŽFFDLª¤B"ÄÐC	òÃ[eƒÃ(éeÄ¤G”Ãk Dq¥IÄ¤-¯Ãòœ!Ä2ýuÃ˜LvÃrÑ6DüÁC•ÍrÄ72ßÂµSbC¨£9Cœ¥ Dæ™LÄÇrFÁwtÄébwDG
Ä:Ë4D„½ŽCGšÐÃ$ÄÂdgÃÜ»nC¶›¡CH(EÄ!T-D