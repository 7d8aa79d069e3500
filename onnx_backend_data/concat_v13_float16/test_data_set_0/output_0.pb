
ByJHεα,ί[	ΰBT•\Mβ!α!ΫΫΤrή‡έ0ΫήΖbjWοVα—a±γh`χάjaΡjα­Y΅adΠRβ»]¥έxΰwΩqΰNbΗc