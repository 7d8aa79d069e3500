
BhiJâ_