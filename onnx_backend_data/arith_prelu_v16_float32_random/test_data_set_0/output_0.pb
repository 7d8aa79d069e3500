ByJ`A)bDFWHJçâGe¼ÆnïŒH`QD«“^D-T.B7¼ÈÚOXD	,ÆŠÑÝCúÒÈU•B
y‰Å8D;{mD×ÙÇ]÷ÁH`AÂCKvÇß¦†H>·=CMf¹C