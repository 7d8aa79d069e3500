BxJFdu
öC