
BhiJÿ{