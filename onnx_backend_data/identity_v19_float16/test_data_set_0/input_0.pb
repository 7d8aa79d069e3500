
BxJ#c5alâeàb]ŠU