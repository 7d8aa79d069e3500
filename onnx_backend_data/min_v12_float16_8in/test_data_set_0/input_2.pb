	
Bx2J$)XÑâárcïb½\ÔUÓ»Þ<cmÕ`¶ana Û.ØTÛs_