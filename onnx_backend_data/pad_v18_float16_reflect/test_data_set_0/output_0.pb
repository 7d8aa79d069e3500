
ByJTJUγXήγJUcJU‹έƒήπ]ƒή‹έ*ή‹έJUγXήγJUcJUJYσO`ίσOJY'UJYJUγXήγJUcJU‹έƒήπ]ƒή‹έ*ή‹έ