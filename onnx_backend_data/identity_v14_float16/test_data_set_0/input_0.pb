
BxJšbvâwáPcƒÞù[