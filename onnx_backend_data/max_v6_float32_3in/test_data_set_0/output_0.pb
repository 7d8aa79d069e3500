ByJTП°4D
pЙB·оD ыC╙WD,╤C■ЕCояCU╓D&▒nD4г
DdmDц╠┴HD╙_7DZqDM4D%XЗCRИ%D^п╦├╦▒qD