
BxJ0`à9QQ<Z×n_6Ûm]ºbHÖ™âÃâh`@æ`^4^2aJVcsV+^bá7Y