
BhiJ<