Bx0Jd”xÃl›‚Bó)D‰ÎB¬¹
Ã«v·A÷/ECÙßÃÎè/Ä“ùBÄ‚îñÃüœžÃ$ÆSDõD
Ä5CwB$D4ävDdaD¬!CDÖóÄ®z·ÂŠgvÄvŸ±BZÿYDs}C