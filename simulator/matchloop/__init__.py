"""The compiled match loop: the round loop with its strategy dispatch, deal, exchange, whole matches, blocks."""
