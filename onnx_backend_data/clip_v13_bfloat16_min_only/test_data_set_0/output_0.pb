ByJx.DãC)CüÃãCÐÃFCüÃNDDQDÛÃCqD²ÃD;D™ÃüÃôÃ×ÃXDüÃüÃ‘Ã{CgDC/DüÃAüÃÎCüÃ‹ÂüÃ
ÃJDüÃSCYÃÃDuDüÃ@D=ÂBDüÃØC\D$DüÃüÃüÃÜÃD¸C)Ã