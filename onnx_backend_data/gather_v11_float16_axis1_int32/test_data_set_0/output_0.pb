
ByJVQ`Ø·Ø·:cOZHcHc‹Z ·U„U„