	
ByJ$d_c8`÷`º_™bcibucÇc5cBb­a3ab£caò`