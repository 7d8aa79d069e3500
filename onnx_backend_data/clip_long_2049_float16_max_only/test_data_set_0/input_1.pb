
BhiJ8b