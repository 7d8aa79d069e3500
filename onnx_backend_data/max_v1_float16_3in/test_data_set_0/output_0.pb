
ByJ*Å‹‡aø_†`Fcı`9ÿ9b:c,`œ`Ì[cja¢bbbK`?b<b4T`