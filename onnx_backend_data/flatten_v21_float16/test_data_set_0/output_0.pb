
ByJ0–`ёыZО\Oаћa]ёlaRU~b©`сёиўuaГЎјZЩav]яќaьяИџЗbха