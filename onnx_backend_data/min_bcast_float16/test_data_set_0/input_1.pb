
Bx1JER`dÝwß