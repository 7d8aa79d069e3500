
BhiJV_