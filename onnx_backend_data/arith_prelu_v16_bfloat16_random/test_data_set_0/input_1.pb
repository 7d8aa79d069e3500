BslopeJ0D≥CВCЬC⌡C·бUднBGDJC C│CдgDDЗC.ц┘бъCPд
дцдD