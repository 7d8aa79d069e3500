
BloJзн