
ByJŒ#`Ž³Ì6hˆ£¼Oi„„pc|‹´Ñ X#<«¯§}cO9ÂŽVE{ŸJÔw.ÌYØ~4x“’eÜ„JÂ™XqÝ†OÕšIsHšÄ)B‹±P“·9I‚¦ox€zh]vŽ^J¼†8G¦jG§r0a¼„TuK2“Ã’^V30­ ~_rB$~jaŽQTuda•UI