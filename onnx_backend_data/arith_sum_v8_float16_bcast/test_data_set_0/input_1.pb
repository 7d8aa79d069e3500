
Bx1J0cb[X_^øá–`>càbÃ`3`åÖ¿ÝˆaàLW/ceÑjaúÝEcã5à¡a÷XDá