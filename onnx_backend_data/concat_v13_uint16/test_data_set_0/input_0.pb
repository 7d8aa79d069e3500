Bx0JÓÂCEO«psA
'º