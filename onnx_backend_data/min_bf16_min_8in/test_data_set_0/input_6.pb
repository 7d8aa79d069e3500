Bx6J
>DÄ¦Ã%DpC