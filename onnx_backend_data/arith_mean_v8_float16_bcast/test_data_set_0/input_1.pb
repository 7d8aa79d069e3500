
Bx1J06cVâ^â,ÖKM×a2àhÝ›a˜cºã×Þ½Z·á]cb°ahãBcBc•Ûcê]®Ü