
ByJ*b&ิพc๐^จXPc^^gc Ûc/bฎbทa๘bสc๏`eaBaab V