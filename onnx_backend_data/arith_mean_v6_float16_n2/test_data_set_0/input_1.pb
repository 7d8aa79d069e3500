
Bx1J0‰Â,auÚ¶â½Ùcã¦a ãœã¸ÞëWæØºâàYbaVybàVPa)bÒß»Y2àQá