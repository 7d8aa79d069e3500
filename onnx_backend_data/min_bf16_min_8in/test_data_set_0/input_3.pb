Bx3J
D¬Ã2CLDÝÂ