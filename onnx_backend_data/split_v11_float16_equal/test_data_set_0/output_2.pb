
By2J7c°\J^q^PZ`Zã Ï