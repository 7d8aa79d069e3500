
Bx1J
dà–à‘c9âbc