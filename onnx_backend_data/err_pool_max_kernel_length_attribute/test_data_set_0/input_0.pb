Bx0Jd/òÃ`D¬oúÃu9DxRÄ"µyÄV|Da	šÃLhÍCE²"Äº/ßÃdk(ÄºåÑC¹'ÒCÑVlCUöŽCTDne>Äl
gBY¹Ä|æÉÂÕÄ(HiÄ‡zvD©Ÿ9D