
By3J7c°\J^q^PZ`Zã Ï