ByJ0«ÆòÂ
âCÓøHDˆ2 D
$ B
âCÓøHDˆ2 D- B
âCÓøHDˆ2 D