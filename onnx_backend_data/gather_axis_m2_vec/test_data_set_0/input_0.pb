BxJ`rðwC=áCÎNlÄÚú¢CÝÄøŒwÄ`¾ÉÃA€D¥XCÉbçÃà¶ÍCV³cÄêLSDµ,LÄ‡f=DCà^DÒoB&öWDÚ©DCâDÄ^^‰?¥¹!Bf
ÍÂ