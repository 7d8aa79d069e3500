Bx2JTŠ¹CCÄÑC°õ)CrëCE%D˜PÏBS¦ìCºœFDßÿ>Ã!_qDk
ç@9ØÕBaLÄê¿¹CÂŽDe+Ä/d×CDBÝÂ–CÑbôB€xD