
BlikeJ©Y