	Bx2JH«ù–CBƒAÃl(wCàúvÄBàDOÏþÃ­¼\Ãe9DÔ¶ÜÂ»£ÂË¯¡CBL“AÒT
ÄnkCN—Âe[ÿCüY5ÄGMÔC