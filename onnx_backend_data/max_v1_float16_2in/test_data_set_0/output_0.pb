
ByJ*ﬁ`Ëa¢b‘bla∆aKc+\o`5Xc›]!‡:]m›‹\#ÿ¢Z°`WbÀc