
ByJ0ΐdθΖXΐΖ/aηLΪ1ηV^μάndªάHe°ζμd$Vµ`¥αJaε«h[Τhgή