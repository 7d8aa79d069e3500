
ByJ0λδ
`ΖεΨW²bfe¤e£ζ©dμίήFbe$βή\jΰRέdδ,ΰ1hυfoέ