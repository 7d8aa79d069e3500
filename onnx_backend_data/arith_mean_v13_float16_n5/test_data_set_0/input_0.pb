
Bx0J0ชิแxิห\`	canY6`uÛ๔ุcIแüUjแูoQสÝfาํแเbๆโTV