BxJ0QDดยฮยฃรuฤ8DปรýรญรครDcร+D
ร9DCฤๆC	DPฤxฤSฤtC+Dืร