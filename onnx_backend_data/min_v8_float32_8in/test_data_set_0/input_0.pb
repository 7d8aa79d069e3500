	Bx0JH yCxฤ"๏ีBฬü€Cý4CID:|ND}พNฤ $D{ร7ฮ1Ca๙C.ธDTข”ย
KD
Yไร@vD"/ฤ