
By0J;˜P3ÌŽJXÕ@ÓöOçÍÍMlMRP