Bx1J`2DJ£(Dx+Ä7ÊÄ^æCÓíÂ»tDF"NBÊgSCóšSÄÀ‰ùCv%öC°¡wDI9ÏÃšn<ÄãP
Dî?ÄÔ+¹ÃIŽÕC¡_+ÃÔUYÄ‰âÃ8\`D	‡sÄ