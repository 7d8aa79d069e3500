
BloJô`