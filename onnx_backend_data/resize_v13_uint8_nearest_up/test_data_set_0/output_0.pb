
ByJŒƒƒ«››zVƒƒ«››zVƒƒ«››zVééXDDíééXDDíSS£‚xSS£‚xSS£‚x99""V¤99""V¤TT‹‹ÎTT‹‹ÎTT‹‹Î­­Óùù*w­­Óùù*wkkŒ™™àkkŒ™™àkkŒ™™àßzz¾ßzz¾