"""``president atlas``'s run: its ladder of players, rule sets, batches, rows and folder, apart
from the simulate run's modules at the top of :mod:`simulator.runs`.
"""
