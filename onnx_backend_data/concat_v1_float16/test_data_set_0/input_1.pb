
Bx1JосCмвна_їa%рaTHaШXaтnр