	ByJHS:DiÜ`D$«hDÄ—rDüðlDID/gDà‰WDiÀUD6iDQLkD;oDÛLsD¤*D
KDe[ÿC@vDÍá_D