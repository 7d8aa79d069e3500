
Bx2J0пвђгиЭ	аТ`…`	bЛФaэбwв+\cЌMіXRrYfU.]7Vg^чbaaЌб