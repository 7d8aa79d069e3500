Bx0J`VöHÄ!<DÖWDÃÔUdÃ
ªÃ—˜CW¡¸CmKD@Ã¨ƒKÄÓëBD+Ç3D¡ªÄŒø,D‘Q˜BÔñ)Ä±1DVœCVƒïÃÔ·ÄªôZDCìwD¨;<Dx†zÁ