
ByJŒPw®íöÜ‹Qw©ÙäÓ‘Uv”‹œ­¨Yt<SˆÀ@ayWVoºGw•r[¬9|Â‰O”N•½’^bb®¸œn/g´¶žq#'Bˆˆrc,J‡Œ{`?l…žRRŽƒ°ÀE,mª–£ŸFOŒÄ°hKv¦ÓÃz;UªµÀÀp0nÝÄ®¼f%†êÈª¼d"Œ