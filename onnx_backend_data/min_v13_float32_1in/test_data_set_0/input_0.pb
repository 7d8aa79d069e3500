Bx0JT2[*D¬aD0rDÔkßÃ¹%WÄ{N[Ä
d²CšCDRÙBµ‘ÅBOUDã3Ä÷ uDüvJÄ;LÄW¼kD_ÊB¬NgÃ8çBÓ´
ÄAË:Ä