
ByJ÷µY<ÅºW9U@oD{E‰C¿DG@©½.;