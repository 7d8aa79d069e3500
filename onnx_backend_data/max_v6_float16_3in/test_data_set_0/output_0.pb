
ByJ*аcb9bE_bГa└c╗au_%cDc	bВbi_лж╦]Y]Ic÷b╟`┴M