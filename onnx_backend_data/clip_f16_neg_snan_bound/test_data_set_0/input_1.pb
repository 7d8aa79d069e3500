
BloJü