ByJàÉæ-DºÓCF¢H;XDû1Da…WC‡VÐCü®CHÝú1DWñ¶ÈÖJQD•¨IÊRFTgcCnTëÈ¤BC°Z^C¶œCH_ÙHš†DdlÈö½õH¼‰CC«•Ææˆ,ÅâlñH.Ë5HØ¯°Cd0ãCÊQDñïpH¬|hD’ÌCöƒDD*ågDÑ*ÿHC°HHÎbDìÆˆÈzšBÕyI»ÒÔGïT+IvÇüC‰®nÈcÖHgÑWFu¾BDº@D([RÈ’F½Hô)
HiŸCs#ûA]ÀD¸R3I%DG¥p"D+¬ÞC^ôÇEGD­„_E®ÍHµ9 DW,Däª_D9‰™C™I…É½7Cn„¾EŠWÉGm·BâÀ×BVPæC‰¼HíHÌB°ø
DT\ÜCïØòÇÜÿH±¸Gø§H™â#B[ñoÈHigHº/TDüœfDÒÆØÇs¿#È”ŒÖHe‡³C¥!D
rDÆDÛ^·HýwD}´DIzl]AXJ]È;»He
H—ÛJI9=%D1ëCdºIK/˜CÌwµB!ÙÇ€yoD9ZVD|ÍÙG¾”C3D¶+(È¦Ó^H0gvC|Ý%H¶7D