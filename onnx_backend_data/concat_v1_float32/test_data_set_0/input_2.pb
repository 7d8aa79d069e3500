Bx2JHฐyมCฆMฬร=rฤงaCCA”5DW
พรๆlภร =kDc7Dเบ&รห 5D%@รองbD้h)D[ฤÞoD๓Jฟิศ€ร