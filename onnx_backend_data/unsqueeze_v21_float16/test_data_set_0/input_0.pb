
BxJ”вуЬ—NЧPk:ЅL