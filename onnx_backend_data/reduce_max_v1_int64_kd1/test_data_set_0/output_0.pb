ByJx¬βτrf®5Cdhύ[qa¨ΠdpχYz.P	gΩ
b(&ϋ΅!RαE7ί{τ£υ0_ΓW?$«uύuγΪUbsώ~Sm“8’PΉDWΐPάϋsώ
™έJ0'D4>τfΙ–Yδª¶)Bύaπιν O