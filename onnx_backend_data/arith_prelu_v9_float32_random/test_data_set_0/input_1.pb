BslopeJ`
B D@3Ämg/ÂJCþC>·Ã>*ÄaêDÑ9tD¿l^ÄÕJ0Áu=DÀ3fD×}6D@gD½<½Â“ôC¯$“Àÿ£öC®ÌÏCNpwÄàçÒÃ'WÙÃçÃQcZÄ