
BxJ…бO`ъNСљW™вOгab~ШРayЫЉв