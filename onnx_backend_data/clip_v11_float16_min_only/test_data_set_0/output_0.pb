
ByJxЗWЦЩҐЯxаxав_xааф]“Эоbxа]ґXшalЮxаxаAP+ЭxаЛ\aЩ]xа`ЮЄaЎ^CЦшaxаSaўЮxа©cYЛШFЬК]ђ[xаaxаоaї`а?TЦЭыФxа
`2bb`0а?ЫxаўcлPЛbxа