Bx0J
VsC½i0Ä fõÃ