"""president-sim: a Monte-Carlo laboratory for the card game Président.

The rules live in :mod:`simulator.rules.options`; :mod:`simulator.reference.round` is the plain-Python
reference engine that reads like the rule book, and the numba kernel is its fast twin.
"""

__version__ = "0.1.0"
