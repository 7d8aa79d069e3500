BxJ œµ+D¦Äs@¡FÄ·-ÄDýÅCBÅ]CÕã;Ã#mÄ[
Ä 9²ÃU£ÄoqD_AD÷1ŽÃÔ+Ä7³,Dq¡ÉCiÚäC²9ïC“lD“IaD	øDR»ÂþaaD4OÃ,jCDÙIOÃ^jzÂqE
CågÙCïÉEDsª>DµÄ)D>’+Âà'jÄ«ÃÁßÇ-ÄW )Äz“Â¤BÙŽÃò¯kD¡ûÄÜ1³ÂÆ5DEäDôªDee_DK1Ãâ!Äúï¢ÃU™ÃàXBÑ|9D6wµCãÌIÄ»wODÿFÄfÄëySD{eÃJêrÃjŽÉÃe]ZÃ›KDwPD&PDüÃÃ€		Ä	!¬Cc,øC‘¤Ã