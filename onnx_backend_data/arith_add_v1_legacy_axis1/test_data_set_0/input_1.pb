Bx1J0b¢_DF”qC©ÖDAÿûÃ˜}B
uD·)ƒCèÒuDBNÛÃÚUfÄí0sÄƒŽ=C