
ByJ┼bф╥F]о^вр`YTY`YYкc╒`o▄╥жтв▐