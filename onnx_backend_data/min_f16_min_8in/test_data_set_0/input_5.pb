
Bx5J
�3bmݹ߱a