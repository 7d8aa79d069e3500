BxJ`]Ó%NPçNH÷IšG(Aªö‡µµlê©qê°s{Á?¾wÙ›ÿÉ‚ixˆ
–jm½9Ra)mÞfƒÖ:È‡âþD—ÆñCMf?#»…¶u‘nÜgÐ^,Œ `xx–Ò€KY/ GÅ