	
ByJ$öaaëa¬`r_‰cycÅcëbñ_"]jcÀb¯b¶cîaÃc‰c