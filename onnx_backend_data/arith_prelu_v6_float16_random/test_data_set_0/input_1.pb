
BslopeJ0яШ5c“гаСCЩ4_FYЋв_‡аjW&UгЫQ—aЏШЙаэUJNїb[YИa[Tўа