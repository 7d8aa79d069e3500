ByJ
"ÄyÄPÄoÄñÃ