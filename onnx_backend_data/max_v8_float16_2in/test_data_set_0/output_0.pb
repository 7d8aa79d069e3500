
ByJ*ÊÖ½aÃc$b\áˆ]&Ôö[€HdcƒaSÙùbGÎ­Ýë`'ÃŽáLÔtàab