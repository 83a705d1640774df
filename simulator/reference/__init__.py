"""The reference engine: random streams, one round, whole matches — the rule book in plain Python."""
