
By0Jbáw[ã~a