Bx4J
"ÄDAD-ÄD