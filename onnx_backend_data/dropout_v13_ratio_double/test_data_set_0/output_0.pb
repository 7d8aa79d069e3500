
ByJdàd`TcQF