Bx0Jxๅย;เBCจpD]DÞใรฐ!FDฟ*4ฤQฺGDXsฤC—CerrDฏd\ฤจฅIฤ}ldDน๚รฦGรZรเรC&O”รiํ๏ยSฒD[3ฤนEร2า๎CGm Cรรจ
DtยD’7Dม 	B