	Bx0J$mยnย๋BDาC8ฤฏC
รวรfฤdDDถC5ฤ\ฤ
C3Dๅร