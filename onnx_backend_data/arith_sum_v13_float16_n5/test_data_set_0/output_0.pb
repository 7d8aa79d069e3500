
ByJ0bkƒNгдЉb[Ghzhi^ў,и”и*dJиzbЕ]EбаhВ^\џ:fgйXNїя