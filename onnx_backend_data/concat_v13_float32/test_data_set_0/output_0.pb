ByJ~ÈCêˆÂ DbDús‹ÃOlÄHÂ†C^¼iÄ«“Á
>EÄÁhD¢UDd^ÄZòCá´CËiçÃòÃGdD"1Dùü6Cp”
Ä+^
DÄ2Ä«CXÄÕÃöRÌC>MÃcšjD7çaÄ@ßÈÃÆ‹XÄÃÄØÜDTöŽBŠrÃÉqhD¹<D