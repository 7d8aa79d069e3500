
ByJ ?Ì<VD7BDÛAeCDõCD¨=>