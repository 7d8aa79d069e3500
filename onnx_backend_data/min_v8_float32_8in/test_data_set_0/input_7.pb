	Bx7JHˆR9Dß?#Ä$«hD]D¯d®CbI,D("ÄÖ
üÀiÀUD§~>DIÃ7LÊChÅìÃÓmæBÿD/NhÄòÞýCÙD