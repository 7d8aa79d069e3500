BslopeJ`ÊåCÀLRD±NqC×-Dœ
D)#C’CÃ›_NÄîàÃÌ[Ãü±tÄ8CùåsD‰ƒQÂâ¢8Äƒ¸ÄX.kDR Äe…†CáTÄÉêœC× DÐŽúC$Â)D