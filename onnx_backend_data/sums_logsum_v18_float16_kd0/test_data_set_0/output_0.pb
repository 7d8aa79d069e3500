
ByJA$Aƒ@ð@3AÁ@A¾@.@hAQAIA