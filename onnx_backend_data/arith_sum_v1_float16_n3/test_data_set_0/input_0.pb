
Bx0J0(aûbWâ_L\m[bdáP`wÔtÛ˜á¹bÔ\†ÌcØ‚_<c‹^…N–ÝÑa‡WÓÙ