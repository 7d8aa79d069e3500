	
Bx6J$_ÉãcYocİbâµÜOàÕİãMKXÒáFãÎWúLÉG