
Bx1J*]O×FY^E_b:È7ÝÓâ%c®`	boãÁàŒãdVY]Ría°`»ã