
ByJ‘E•DÈF¿C¨E2E|C±D>D2E±D•D