	
Bx2J$i‹≤ZÚbM[D^+ﬁó„â‚!ﬂa‹/Qé‡Tﬁ^(bπcW„