
ByJ#c5alâeàb]ŠU