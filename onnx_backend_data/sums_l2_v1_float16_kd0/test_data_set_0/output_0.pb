
ByJîBÕEÕE¿EîB±D±D6CæD‘EÌD‘E¿C•DE