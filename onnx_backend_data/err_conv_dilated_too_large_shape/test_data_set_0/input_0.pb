Bx0JdÀJ D@¨Ã}
ÇCo˜ÝÃ*7DÚeCKvqC{ÈAÄnEvDäÐÁ;êkC¡D’CQÃÄcÕÁš%ÃïvÄl"ÞCkÁ.ÄçyÄƒ¶‹Ck^ÄpeDª¤rÃwzƒC(ë7D