By1J@7#z8zvB¨“+Î±œ(Ÿi^h¿õ@m
Ê×C¾ZVq-àmu¢
½&pL0%<Êi€™<fw`G