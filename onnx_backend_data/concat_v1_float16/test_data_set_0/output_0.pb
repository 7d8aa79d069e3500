
ByJHЇ]ЄгТ`ЮбCЬТЭР_чa%аџbraN]µVА_вF\`Цa‡ЯRЮИвaTHaИXaвnаШвЇгД_ЂV»Un_бYуб