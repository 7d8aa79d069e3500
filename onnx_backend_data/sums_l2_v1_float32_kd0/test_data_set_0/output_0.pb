ByJ
jA¯êAùAFÍA