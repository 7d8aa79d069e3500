
By0JFÚJbà}^