Bx7J
KDpDéÃÄñÃ