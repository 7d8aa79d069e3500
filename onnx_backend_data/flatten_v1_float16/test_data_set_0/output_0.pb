
ByJ0Z_rbH`cÝ7ãÃãSyâgÞkc`{XCÜaÝZ^àc`4X	ãbÝb>cÅa