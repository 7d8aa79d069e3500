Bx2J'
χCD=Γομ DΫr0DEΣQΔ