Bx1J]wBBeC╡Ы'дк╠
C