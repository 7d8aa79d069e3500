
Bx3J0муНK╗▌aN`Nр■тl┌H\■bwс╚bjb#aьaHргcо▌в╪░рЩWфaЦ┘Д▐