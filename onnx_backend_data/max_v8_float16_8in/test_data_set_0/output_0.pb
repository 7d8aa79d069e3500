	
ByJ$žaîbòb/a‹b\a_Ãa¼^Å\îbÈcÌcFb^(b¹cSc