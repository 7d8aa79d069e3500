	
Bx5J$цa™влaЫИгna­ачалbaвPYS\ ЭЇb9Rдa=bов