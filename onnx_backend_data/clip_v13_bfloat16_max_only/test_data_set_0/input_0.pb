BxJx.DãC)CÄãCÐÃFCtÄNDDQDÛÃCqD²ÃD;D™Ã/ÄôÃ×ÃXDBÄkÄ‘Ã{CgDC/DÄAÄÎCÄ‹Â^Ä
ÃJDÄSCYÃÃDuDSÄ@D=ÂBD%ÄØC\D$DÄÄüÃÜÃD¸C)Ã