ByJàÉæ-DºÓC&ÐH;XDû1Da…WC‡VÐCiz>HÝú1D\ÀáGÖJQDºQ(Hû„LFTgcCÓ2H¤BC°Z^C¶œC»HÅGš†D--H1
H¼‰CCâj2EãýDŸÃH1õ0HØ¯°Cd0ãCÊQD]}‡G¬|hD’ÌCöƒDD*ågDé}H1òHHÎbDnÈ¨GzšBÓœ,Hp)ÏG™HvÇüCj/HMñG·RFu¾BDº@DÀBHNàÔG}HiŸCs#ûA]ÀDÃ®IHfí>G¥p"D+¬ÞCÃ3³GEGD’YE¬ºGµ9 DW,Däª_D9‰™C[¥HY¾9H½7CËEÖDnüÃGm·BâÀ×BVPæC9ÔGíHÌB°ø
DT\ÜCp²GœáHbÇ³GÏ˜G™â#B%õ/Hÿ!‚Gº/TDüœfDPÀG´)ðGMñGe‡³C¥!D
rDÆD<ÎGýwDá†2Hzl]A{G"HÇF'GsHk8H9=%D1ëCxFHK/˜CÌwµB†<G€yoD9ZVDHÔG¾”C3DZ¦öGWœzG0gvCz‰G¶7D