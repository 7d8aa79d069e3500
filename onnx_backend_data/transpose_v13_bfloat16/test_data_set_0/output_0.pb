ByJ0ÄÄyDOCƒÃ-DÃÄjD
DD<DoC
CÂCOÄóBtÄøC>CàCÌÂC[Ä