
Bx2J*Nбаa]*ДEЦЄ\Iв—Я:c,`П`ЗYyЮjaoаbbаШЛa[4T`