Baj"
location../../decoy/secret.binp