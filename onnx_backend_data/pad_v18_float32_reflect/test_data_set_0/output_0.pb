ByJ¨¿vôÃàXxÄ·nDàXxÄ¿vôÃÍD¿vôÃRg
Ä:‹Ãý{IB:‹ÃRg
Ä	m>ÃRg
Ä¿vôÃàXxÄ·nDàXxÄ¿vôÃÍD¿vôÃÈhD¤*žC«¬Ä¤*žCÈhDŸ`*ÄÈhD¿vôÃàXxÄ·nDàXxÄ¿vôÃÍD¿vôÃRg
Ä:‹Ãý{IB:‹ÃRg
Ä	m>ÃRg
Ä