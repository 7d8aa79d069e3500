
BlikeJ\â