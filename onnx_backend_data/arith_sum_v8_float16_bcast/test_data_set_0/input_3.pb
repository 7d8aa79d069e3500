
Bx3J
b