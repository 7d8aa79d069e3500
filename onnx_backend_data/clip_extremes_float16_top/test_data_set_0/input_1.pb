
BloJÿ{