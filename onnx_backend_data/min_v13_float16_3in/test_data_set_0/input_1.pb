
Bx1J*DXyTJbfb1WmalÜQ_…c‹âx`£aD^Í]râÎâªW}Z=VbY5`