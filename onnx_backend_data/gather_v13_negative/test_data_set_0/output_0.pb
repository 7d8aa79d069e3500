ByJ€¥XCÉbçÃà¶ÍCV³cÄÝÄøŒwÄ`¾ÉÃA€DrðwC=áCÎNlÄÚú¢CrðwC=áCÎNlÄÚú¢CÄ^^‰?¥¹!Bf
ÍÂÒoB&öWDÚ©DCâDêLSDµ,LÄ‡f=DCà^DêLSDµ,LÄ‡f=DCà^D