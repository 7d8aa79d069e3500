Bx1JïO
or|C7‹ù=