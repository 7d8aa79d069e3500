Bx0Jd‰ÈzCˆä`ÄSXyÄruÁÚïýBõúÁÛ-MDìgÃÎÂËCÅyåC`C=2C¿mÄ3‡Bk–ÂâŸ(B"hZD¥
XD¢qgÃM,›ÃC$C3£C4á4D~PÑA‘ÞrD