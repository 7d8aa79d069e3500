
Bx2J$€‘rﬁá›0€ﬁ∆bjWÔV·d–R‚ª]•›x‡wŸq‡Nb«c