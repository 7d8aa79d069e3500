ByJTwDwDwDwDwDwDwDwDwDÁ˜¬Ë£M‡wDwDwD
Vÿe³ºÍwDwDwDÁÕS)Ë*/³wDwDwDwDwDwDwDwDwDwDwDwDwDwDwD