"""Applications on the reference engine: replays of given deals and terminal play."""
