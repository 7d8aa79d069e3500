
ByJ0n‚n‚n‚D÷D÷D÷›_›_≠Ty÷y÷y÷n‚n‚n‚D÷‡f‡›_‡f‡y÷‡f‡