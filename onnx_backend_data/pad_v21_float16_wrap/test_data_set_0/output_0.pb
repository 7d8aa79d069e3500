
ByJTj\‰c¬bMáj\‰c¬bãaèâ©c%âãaèâ©c>â8N›â†X>â8N›âj\‰c¬bMáj\‰c¬bãaèâ©c%âãaèâ©c>â8N›â†X>â8N›â