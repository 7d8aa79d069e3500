
ByJTØaL”h`L”ØaPﬁØaj‚&a¢‚&aj‚‡bj‚ØaL”h`L”ØaPﬁØa8^9·Ò`9·8^K`8^ØaL”h`L”ØaPﬁØaj‚&a¢‚&aj‚‡bj‚