Bin2JH_AV'iLgÞ¨7÷L"òc9$$RÈE*®ñ!ÐkB
/RA!Ùt¬?3*BtÀ^Rby"~!DãkW
gA@?8z