	Bx5JHY¾>ÄýcQÄ… ¿Ãd ¼CBPÐC1¿ÃƒÿºC/õ>Dî-”C3éBº;Co‚\ÃXÙBDáÁÃÀ
2D»\Ã¸tÄo9Ä