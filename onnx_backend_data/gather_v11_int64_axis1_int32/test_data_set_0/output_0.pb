ByJ`Œ2Q¼INiÁƒ*ÞS²"wH’“Ø"wH’“ØözqbãÇáØCïæ/£ñm=R$¤˜ñm=R$¤˜hT³¤¤Ðmm’
sØHAÆžCXu-±üÆžCXu-±ü