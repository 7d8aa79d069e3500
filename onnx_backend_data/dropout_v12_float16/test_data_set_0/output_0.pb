
ByJ0­\A\hÙÏÍscaßIá"S6aã^à7]DÝgá&â!Ùñ`cÝ…T?âÿbrâ©J X