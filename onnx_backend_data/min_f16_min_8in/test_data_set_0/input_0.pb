
Bx0J
L`ZW‡ï‹èa