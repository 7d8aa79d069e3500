
Bx6J
ˆÝo\dOMc¥`