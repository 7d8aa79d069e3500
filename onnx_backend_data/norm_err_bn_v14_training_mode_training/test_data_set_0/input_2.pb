Bx2J,
By√Cm√