
BxJ¤à«b˜cka=XéJ