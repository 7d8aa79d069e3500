
ByJTuauauauauauauauaua…áO`úNÑuauauašW™âOãabuauaua~ØĞayÛŠâuauauauauauauauauauauauauauaua