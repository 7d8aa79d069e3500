ByJ0>CAŒC=A×CvA«ÃãBÃnÃ9Ã¯CòCnCD
À¡CbÂfÃ­Ã(C—BDÃ€À