By3J }∙VD└=6─8ымCГ╓"─lгJ─KЛ
─XVDЇD