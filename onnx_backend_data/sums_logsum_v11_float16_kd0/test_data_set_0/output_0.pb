
ByJ%A*@AU@DAZ@Ü@›@(?-AA6@