
ByJTOг™вљW™вOгabOгъNO`…бO`ъNСъNOг™вљW™вOгabOгyЫРa~ШРayЫЉвyЫOг™вљW™вOгabOгъNO`…бO`ъNСъN