ByJ`~DÄ®‚Cö	CkrÄ
ÃCS´^D–SßÂCyÃ›Ï6DF&Ä¨PÄlg ÄÈ¯Ão Ã‡mÔC¦ÑvDLÃl”ˆÃ¶ŸDÎ¦
ÄÀ–ÒÃ>éyDû{Äc(D