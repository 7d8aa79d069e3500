
BhiJë`