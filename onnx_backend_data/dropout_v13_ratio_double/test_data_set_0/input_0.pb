
BxJdàd`TcQF