
ByJ
zc3b‘ccbc