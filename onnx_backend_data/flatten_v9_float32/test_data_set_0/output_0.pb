ByJ`ó€@√Ö&_√êãpƒx*ï√=ˇ«√˜Q)DŒÔQƒ‡zöCIÖ¯√a^CQ1¯√8Ñ
ƒúMãCCùCDXºπ?úÂDD‹OD,C—√a∆ö√¯îûCàGeD14>Dk«C÷ïfD