
ByJîA”CCÎCþ6dB2@EB+DWBóB•@