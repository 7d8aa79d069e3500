ByJàÉæ-DºÓCC+É;XDû1Da…WC‡VÐC ³2ÉÝú1DJËÓÈÖJQD©éÉôß?ÇTgcC³8É¤BC°Z^C¶œC9¹Èš†D(ç™HÃuH¼‰CCq¦žE¤aEéqqH'ZHØ¯°Cd0ãCÊQDöôðG¬|hD’ÌCöƒDD*ågD!0HŒsHHÎbDAHzšBÝÐÈWš¸Ç»
ÈvÇüCûøÈ—ÜÖÇZ3;Æu¾BDº@Dcv	Èè±½ÇÑ¯ïÇiŸCs#ûA]ÀDh¸3Èß"*Ç¥p"D+¬ÞCr¨ÈEGDîLÆ’!¯Èµ9 DW,Däª_D9‰™CuãÉB.É½7CgÉÅxÞ·Èm·BâÀ×BVPæCïÆÈíHÌB°ø
DT\ÜCZ[HnáHTÜHs:H™â#BzvœHnçGº/TDüœfDzÝmGüUH‘VHe‡³C¥!D
rDÆD­b7HýwDV¿žHzl]A–›È’Ç"GÈê$È9=%D1ëC1
ÈK/˜CÌwµBÄ<ïÆ€yoD9ZVDì¼Ç¾”C3DpÊÛÇR_Ç0gvCì$Ç¶7D