
BxJxÂANC3<B«=…AšA¨?@ƒBBX=MCÅ@H=ËAáB>Q@óABfBAB«?Ê@”>f?ûAÛAªBY>Þ@¶C=Y=’>ˆ?ø8eBz8A+?q<6B’>Î<“9[>^<VB8;q:UBâ>‘B¸CAK<&9