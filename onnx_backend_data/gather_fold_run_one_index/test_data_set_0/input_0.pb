Bx0JïÁ¤A­y2DPIDYï`Dåæ
Dî’D