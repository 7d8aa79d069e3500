ByJû‘ΩAä#=BÄVKBé
B