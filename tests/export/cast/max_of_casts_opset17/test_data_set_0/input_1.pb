
Bx1J
œVüÌ,U<NóÎ