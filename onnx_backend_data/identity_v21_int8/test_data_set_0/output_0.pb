ByJFdu
öC