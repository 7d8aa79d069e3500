
BxJp]pY^╪П╪W`пу