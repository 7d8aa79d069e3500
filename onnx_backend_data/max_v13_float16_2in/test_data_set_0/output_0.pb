
ByJ*Vaо\>a╪1Z■Z╔bа\В]▐Ъ╘КcСXE]Ъc└b\nриbпXРc