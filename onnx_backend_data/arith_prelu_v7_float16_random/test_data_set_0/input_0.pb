
BxJ0‡§ﬂu·MVd·áﬁPa&c^€∫‹g”÷‹?‹Q_»a3aaV‡§a|Rjc‚ù’©c