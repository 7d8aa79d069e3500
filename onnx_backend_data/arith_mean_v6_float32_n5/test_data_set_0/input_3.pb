Bx3J`(§ØCý+D½d1Äë-)DÚ18Dúa
Ä7hgDÂï‚ÂäµHDßšûÃ|ôaD¨ýCyp­ÂßßdÄ)FeD£¼_ÃäçB+©rÄ«b³CèàCLíCOLSÃ”ÃÕùB