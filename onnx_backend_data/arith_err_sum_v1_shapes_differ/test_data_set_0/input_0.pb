Bx0J0Ì…m@±z]Dc)
De<MÄQ€#Cp"NÄA_DrÈîÁWeCÐò7Ä´ýjC$ VC