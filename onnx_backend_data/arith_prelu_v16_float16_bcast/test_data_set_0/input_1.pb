
BslopeJќнтUГс