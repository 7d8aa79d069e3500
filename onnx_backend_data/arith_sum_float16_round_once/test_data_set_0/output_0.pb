
ByJhhh