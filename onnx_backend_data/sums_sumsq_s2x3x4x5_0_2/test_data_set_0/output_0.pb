ByJ<AYnB
+BåRBc%B³ÚïA¤MBÐ<BBn‘AjŸÙAèDBÞ7…B0ßB%ABpw:B[®9B