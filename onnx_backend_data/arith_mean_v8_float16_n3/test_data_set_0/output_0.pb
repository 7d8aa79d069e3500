
ByJ0hcûàpÔ'ÜV×Þ\óÕDÙøÑ8aœTíXRbÝÇÞÁÛ€ß=YsbwY¨QÇT?ß