
Bx2JKav^‚^IÜ