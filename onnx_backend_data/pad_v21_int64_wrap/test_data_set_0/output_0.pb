ByJÐ,Œ `xx–Ò€KY/ GÅñCMf?#»…¶u‘nÜgÐ^,Œ `xx–Ò€KY/ GÅñCMf?#»…ö‡µµlê©qê°s{Á?¾]Ó%NPçNH÷IšG(Aªö‡µµlê©qê°s{Á?¾]Ó%NPçNRa)mÞfƒÖ:È‡âþD—ÆwÙ›ÿÉ‚ixˆ
–jm½9Ra)mÞfƒÖ:È‡âþD—ÆwÙ›ÿÉ‚i,Œ `xx–Ò€KY/ GÅñCMf?#»…¶u‘nÜgÐ^,Œ `xx–Ò€KY/ GÅñCMf?#»…ö‡µµlê©qê°s{Á?¾]Ó%NPçNH÷IšG(Aªö‡µµlê©qê°s{Á?¾]Ó%NPçNRa)mÞfƒÖ:È‡âþD—ÆwÙ›ÿÉ‚ixˆ
–jm½9Ra)mÞfƒÖ:È‡âþD—ÆwÙ›ÿÉ‚i