
By0JIгйотха┌HlQгMpн