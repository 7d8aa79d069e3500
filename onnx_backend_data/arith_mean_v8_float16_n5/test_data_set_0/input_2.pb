
Bx2J0–бЧWTa[XЎcdaЋ`ГЫ‡Ю¤ЫSO_Сб‘вN‘ЯAЭnбq[Fbт\цVGRРв