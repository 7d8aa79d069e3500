Bx5J
qCyÄDoÄöB