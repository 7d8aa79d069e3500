ByJĞRa)mŞfƒÖxˆ
–jm½9wÙ›ÿÉ‚ixˆ
–jm½9Ra)mŞfƒÖ:È‡âşD—ÆRa)mŞfƒÖö‡µµlê©qH÷IšG(Aª]Ó%NPçNH÷IšG(Aªö‡µµlê©qê°s{Á?¾ö‡µµlê©qRa)mŞfƒÖxˆ
–jm½9wÙ›ÿÉ‚ixˆ
–jm½9Ra)mŞfƒÖ:È‡âşD—ÆRa)mŞfƒÖ,Œ `xx–Ò¶u‘nÜgĞ^ñCMf?#»…¶u‘nÜgĞ^,Œ `xx–Ò€KY/ GÅ,Œ `xx–ÒRa)mŞfƒÖxˆ
–jm½9wÙ›ÿÉ‚ixˆ
–jm½9Ra)mŞfƒÖ:È‡âşD—ÆRa)mŞfƒÖö‡µµlê©qH÷IšG(Aª]Ó%NPçNH÷IšG(Aªö‡µµlê©qê°s{Á?¾ö‡µµlê©q