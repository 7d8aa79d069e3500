
ByJT©c©c©c%âãaèâèâ©c©c©c%âãaèâèâ›â›â›â†X>â8N8N¬b¬b¬bMáj\‰c‰c¬b¬b¬bMáj\‰c‰c¬b¬b¬bMáj\‰c‰c