ByJ`
EÆœöC´ELŸåD˜°ÞD"…DÉ<[DLŒD)“DOÁ3FD•Ä¼nÍDzæŸD»0EÓ¼8EóVEŽ9…B×GýDüé¹DPDÚYºDL‹DëêíD