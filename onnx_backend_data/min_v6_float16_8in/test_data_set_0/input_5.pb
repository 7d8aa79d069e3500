	
Bx5J$z\<bµ]Kài\aW“ác!Ú_`b|aDàaã9YG[5Øp`