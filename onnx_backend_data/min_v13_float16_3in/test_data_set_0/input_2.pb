
Bx2J*НYqЯЇ^nвc9ЦeЙASврY’ЬјaЎYyбсв·_pвЮa`±ЬњЬ