
ByJDDÆD[DYA¢Cƒ:K>ÿ5ÖBpD<