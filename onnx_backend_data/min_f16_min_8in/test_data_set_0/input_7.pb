
Bx7J
zcaWeß›^