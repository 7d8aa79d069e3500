Bx0Jàï\ÊÃ›wCk–
DÍ#Bv¾±CŸUÄ1O3Ão®âA½ËHÄ•A(Du$”CÆ£¦CÿéÄÿÀ÷ÃÂW"DhcBÄB@CÄÝâ¿%™]Ã„¼CNk+ÄåTÄ+ÞDSØ¸CšDXJÉÃ~økD[OÝÃ·ÇŽBÅDwiqÄíœCB¼ÃÝÄOÅADÌ°˜Âr=Ä–ÀCõÜÄ¨Ã
{©ÃŒœC8·†C^ã÷C’¹ìCØu‹Ã•°ÆÃÅ=DìÄ“·“B[$NDrYCc²ÉÃ êÿÃ%²½CÈ¯ËÃ¦Ž*Ä-ªêBFVNÄá+¾Ã[âDDÜ£DyÄpCPÈ¦CÞ3«C³k[Ä<¨CCbDÞmæÃEkÃ­ênÄ$³eÄ¦¡Ã1Ã!C2DGB)ÄI(CºƒAãI½CëFßC„‡Â?‘nC›·LÁœ4[Da¾'D§>Ä˜%ÐBi‰cÄ¸ÊQÄûó>Ä BÕ
DUÝBGDD.CÍÇ±CºLDJ+DF=„Âk),Ä˜mÃmôaÄö|ÜA6´žBg%Ä‘DØ)ÚÃ¶p>D–Œ&Är9DÞMÄD3¥Ãå8þC½ºFÄÏ´”CxôBtž…Ã³žÂSªD|'Ã