
J▐UUFNeпiохT┼у#U