
Bx0J*Þ`7เขbิblaฦaKcYo`IÜcP\fเýZ!โÜ\#ุCใG^Wb^เ