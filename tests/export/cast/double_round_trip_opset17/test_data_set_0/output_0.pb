
By0JGR4PÆP¬ÒMÌ°ÅBÅ