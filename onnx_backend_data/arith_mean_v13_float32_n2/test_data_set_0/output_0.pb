ByJ`
õBÔ² BÔ‹½Ã&ëCGÞA²ÌÃ‰ÂîGÄí-D O:Bøs8Cz‚4CXÄðÛŸAbQD îOA°M…AD2D5j£Cè#ODõºîCÎÆÉÃ–Å1Ä×¥æC