
ByJ*}ÔI_QÖa’bNu]X^^%bVº`_M`™Z¥cMa„Ùäað`Hc