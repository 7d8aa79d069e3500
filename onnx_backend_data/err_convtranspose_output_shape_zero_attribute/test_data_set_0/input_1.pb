Bx1J$<Ç‚C*yTÁÓª
DA4iDÚñ`DhÈaDDã&DÂ7JÃºT^D