	
ByJ$È_<b–`oc/cb¸bc*a™c½bšbÒY®b‚a`¼cÞ`