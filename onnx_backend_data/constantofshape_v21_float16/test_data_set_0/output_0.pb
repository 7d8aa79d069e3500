
ByJmbmbmbmbmbmb