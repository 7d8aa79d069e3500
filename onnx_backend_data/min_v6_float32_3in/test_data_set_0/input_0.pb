Bx0JTø4D
p‰Bˆ¼×ÃÿëC°bKD 7YÃåB’Ã®ïC¯óDC»ZCÖË'ÄdmDh:çÃHDÓ_7DZqDÎØöÃÕƒ{ÂË²mBv_ÞÃÕßnC