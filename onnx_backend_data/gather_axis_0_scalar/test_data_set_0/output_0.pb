ByJ0๊LSDต,Lฤf=DCเ^DาoB&๖WDฺฉDCโDฤ^^?ฅน!Bf
อย