
ByJ¤à«b˜cka=XéJ