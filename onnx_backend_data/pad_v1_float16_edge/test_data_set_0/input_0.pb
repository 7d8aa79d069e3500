
BxJ¢‚&aj‚‡bh`L”ØaPﬁÒ`9·8^K`