Bx2J$9цEDrдFC.DпCыцNддaцицgцD
DдcдЪцЪц