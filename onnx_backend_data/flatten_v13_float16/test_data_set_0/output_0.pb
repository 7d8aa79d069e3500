
ByJ0ÐÞ¹bV[Là’Ù@`|a„V·KÄãŠMËbbbÚâ½^*YiàßÞ,PåÝ—ÚpÖÎÖ‘Y