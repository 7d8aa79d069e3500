
ByJf.f.f."Ø0Ýf.ÙYÜf.