Bx4J0OýÃ
®8Ä4Á¨CVTrDº;iÄßÒgDwÓQD2:DÛ
”C‡%D¦uDþE-D