ByJHдXд^дhDhD)дНBC╕б9цEDrдFC.DпCыцNддbDnDxдыбь@дрц═бхBaцицgцD
DдcдЪцЪц