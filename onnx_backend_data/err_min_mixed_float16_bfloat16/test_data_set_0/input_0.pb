
Bx0Jª^g·Fc