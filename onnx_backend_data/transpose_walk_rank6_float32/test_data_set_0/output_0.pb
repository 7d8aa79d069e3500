ByJ œµ+D_AD4OÃ·-Ä7³,D^jzÂßÇ-ÄK1Ã{eÃ¤BU™Ãe]ZÃÕã;Ã²9ïCïÉED 9²Ã	øD>’+Â¡ûÄ6wµC&PDEäDÿFÄ	!¬C¦Äs@÷1ŽÃ,jCDDýÅCq¡ÉCqE
CW )Äâ!ÄJêrÃÙŽÃàXB›KD#mÄ“lDsª>DU£ÄR»Âà'jÄÜ1³ÂãÌIÄüÃÃôªDfÄc,øC¡FÄÔ+ÄÙIOÃBÅ]CiÚäCågÙCz“Âúï¢ÃjŽÉÃò¯kDÑ|9DwPD[
Ä“IaDµÄ)DoqDþaaD«ÃÁÆ5D»wOD€		Äee_DëySD‘¤Ã