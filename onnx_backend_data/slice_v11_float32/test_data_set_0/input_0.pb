BxJ`)Î|CøxuC<+§Âé`Ä.åÙB lÄW¸-D
Ò¢BÖrÄ6›ÎÃ¤ÿBD¼ÝEÄ^½;D€²XDP[aÄÔFÃÂ :qÄ˜GDmDëÛ	ÃndÃd#íÂh1ÕC\â×C