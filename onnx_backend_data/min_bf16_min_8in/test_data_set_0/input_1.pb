Bx1J
 D5ÄÄDD