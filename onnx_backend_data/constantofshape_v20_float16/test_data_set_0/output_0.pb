
ByJWWWWWW