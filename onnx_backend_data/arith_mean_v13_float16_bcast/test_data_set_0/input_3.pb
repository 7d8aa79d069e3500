
Bx3Jzc