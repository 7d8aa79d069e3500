
Bx2J*ђв&‘ЊcцS®Xћ№√вьбgcаiа≈`Бaебёвpг9_eaBaabfа