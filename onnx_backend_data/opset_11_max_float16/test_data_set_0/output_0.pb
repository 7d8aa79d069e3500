
ByJЭcЗaБcЗaЭce–Бce–ЭcбаБcба