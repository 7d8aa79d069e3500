ByJàÉæ-DºÓC­É;XDû1Da…WC‡VÐCYŠHÝú1Dý½ïHÖJQDîOòHÿ_ÿÆTgcC·ãÉ¤BC°Z^C¶œCG´!Hš†DþOH¦†ÂH¼‰CCÜ9@Æ²›×D‚ntH„‡€HØ¯°Cd0ãCÊQDCH¬|hD’ÌCöƒDD*ågDúqÈó(ÄÈHÎbDÜMÈzšB’úòHf¼èÈûèDÈvÇüCk"HrYH´•˜Fu¾BDº@DÎnÈj:™H*î§ÈiŸCs#ûA]ÀD[m©È¶½È¥p"D+¬ÞCWbÖGEGD…ntÆÖbìÇµ9 DW,Däª_D9‰™C7É=AEI½7C¼;šE=¸tÈm·BâÀ×BVPæC›!2ÈíHÌB°ø
DT\ÜCÿÕGøˆÊHôøÉÈô“ÀÇ™â#BìHûJêGº/TDüœfDT
H(Y9È5°­He‡³C¥!D
rDÆDQ@-ÈýwDoT’Hzl]A…#BH¥wëGMü"É„$iÈ9=%D1ëC{ŽHK/˜CÌwµB<ŽH€yoD9ZVD]„È¾”C3D9¤˜H²‡ÒÇ0gvCšÆvG¶7D