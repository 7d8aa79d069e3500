Bx0J`¬œ¹Â8
oÃ´ÚhÄãÄ¡oÄ‡Å=DÃS&VÄöÐDd´ÃGwcÄ#‡ÃN>eÄÃÿ*DRª	DdûÃ©¸!CþBD=–5DöšC_TnD™«*D‡õFDü6UD