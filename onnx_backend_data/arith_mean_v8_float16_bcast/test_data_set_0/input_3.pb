
Bx3Jac