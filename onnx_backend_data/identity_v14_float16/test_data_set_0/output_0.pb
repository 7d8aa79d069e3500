
ByJšbvâwáPcƒÞù[