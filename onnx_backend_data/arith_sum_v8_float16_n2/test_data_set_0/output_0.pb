
ByJ0жbbfЮ
бЏbАейб`pРћгК\ШЭ ЦPгждядqcJ_`UАd¦ЮSXBаЋe