BslopeJ
λοC~«C›zΖΑ