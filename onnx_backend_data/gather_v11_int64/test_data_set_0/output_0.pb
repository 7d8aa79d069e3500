ByJ`ÆžCXu-±ü’
sØHAÅô¬±‰¡ˆhT³¤¤Ðmm"wH’“ØÁƒ*ÞS²ÝélfþíÿŒ2Q¼INiÆžCXu-±ü’
sØHAÅô¬±‰¡ˆhT³¤¤Ðmm