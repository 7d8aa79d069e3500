	
Bx1J$9\Õa∫Œ‚¡”D‡√aP` SôcΩb ‡ÍXÆb`ﬁnV%·M‡