
BxJfbI`wc aZbâ