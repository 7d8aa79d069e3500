
ByJŒ£ôN$qÕ‹ÊL&jÕ.NbF&SÞGC/F×`3HOb§mtnPt’jl›­f„šCZ°€rjKDt ˜V0d;kž¤Lk,Cv¼D*;+Œ¾H-%kÀ¿MY¢íÅU¡L+¡öÜ^áNtßöeÿÉrS±çoÿÕƒS«yúÏŒ\SköÒ’^=Nƒ