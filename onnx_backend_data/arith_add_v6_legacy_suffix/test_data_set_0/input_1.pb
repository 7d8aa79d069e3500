Bx1JPeÚxÄÙfWCò<ðCÊ¶mÄ¥dJDÿ#9DçAâÂÑŽÔC`\ÏC`ÊD¨
cDW	ƒÃÊ>D¸¹øC¨KwDOuÃ›Ärñ,Ä:XDpYÄ