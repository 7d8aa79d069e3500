
Bx1J*ÜY\»ZbbCWnX4Þß`É[kâÀâtÜ¸ÜqY1`Oâˆã	_ö`áD`