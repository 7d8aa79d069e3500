
Bx4J
Дam╤есc}_