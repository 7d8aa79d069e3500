
BloJÿû