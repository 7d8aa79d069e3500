Bx1JTrГB~
ƒB{XC<°aD<ЛCR4ƒmг√IJcƒjDУoDџИ€Cмлi¬ц	wƒБU)COнƒ3ІЌ√„ƒORЛ√У7ƒ√§¬RНHƒ