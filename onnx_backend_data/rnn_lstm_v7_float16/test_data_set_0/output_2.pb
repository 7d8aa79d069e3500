
By_cJk7g­m5d´6¸®