ByJ0r๐wCฺ๚ขCÝฤA€DฅXCVณcฤ๊LSDCเ^DาoBโDฤf
อย