Bx2J
д∙юPдCдаC