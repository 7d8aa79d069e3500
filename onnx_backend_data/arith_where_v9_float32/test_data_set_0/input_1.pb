BxJ0åuÃÃ*%D
«oC•|ÅC£føÃKEÄUÀÃAwDwÄáCœàÄ­ÕCœ+ÂC