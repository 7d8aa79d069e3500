
BxJπ]ƒή‹έ*ήXήγJUc`ίσOJY'U