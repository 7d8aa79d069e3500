
ByJT½a½a½a½a½a½a½a½a½a©c%âãaèâ½a½a½a›â†X>â8N½a½a½a¬bMáj\‰c½a½a½a½a½a½a½a½a½a½a½a½a½a½a½a