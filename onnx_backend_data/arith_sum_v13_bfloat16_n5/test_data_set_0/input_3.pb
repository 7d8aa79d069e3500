Bx3J0¬BDsDCÄ#ÄŽÃ0CÄÄDAC¯ÃmÃ
DrÄ%BÄ*ÃaÄöÃjÄnÃSD