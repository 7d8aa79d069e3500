
BloJxà