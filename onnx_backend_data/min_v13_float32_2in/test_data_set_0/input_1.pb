Bx1JT¿ÅCÁM«COW:DÇT‰BQ\ÄÖÉ­C[ÄcCØ˜ÿÂ†ÃHž%D^‚PÄ{à
ÄFŸBA§7C/zB±6Dy†#DèxuÄiÌÂi¾CŠsÒÃ