BxJ`nEDD]n_C('Cмн▒C}ЫVDю=6дFoдgбP╩D°L╕ц8К╛C┐ж"дГц_╟4бpI`дшoКцlёJдK▀
дьQд⌡]:CmЬGBТjЗBXVDТD