Bx2J–zPD
ÂB*ôVÄýTZÄ