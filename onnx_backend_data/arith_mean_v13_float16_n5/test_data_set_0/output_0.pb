
ByJ0×jÜjMœVD ^lPû\UPÙ§Ü‰_:ÑâÍ0àŽÝžX{Ù‡M­ËdPmÜPV^