Je#EvA04C%aK
Qe	