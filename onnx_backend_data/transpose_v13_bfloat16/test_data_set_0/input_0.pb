BxJ0ÄyDƒÃÃjDDoCÂCóBøCàCCÄOC-DÄ
D<D
COÄtÄ>CÌÂ[Ä