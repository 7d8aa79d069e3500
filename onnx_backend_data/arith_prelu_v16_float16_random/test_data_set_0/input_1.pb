
BslopeJ04báTCbÿb=„b‹Y∑·ÿ·k›_{b„S-·ªL>\paπ`"›:€ÓﬂŒ‘Ë^