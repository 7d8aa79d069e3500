
ByJ0]©^кшy^1вm[rXcмм_ъ╟NгомлюW1RШQ5ж`\ъpтoTEXНUCT