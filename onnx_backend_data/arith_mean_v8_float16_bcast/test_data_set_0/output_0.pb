
ByJ0î_XKV´XÕ_Ñ`*]M\Ï^"_eP}R^_YG`^+a»\žaž`\Q_O^eX