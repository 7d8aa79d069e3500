
BxJ©c%âãaèâ›â†X>â8N¬bMáj\‰c