
BhiJÿû