
BloJ4â