"""Tests of the numba kernel and the compiled match loop (``simulator.kernel``,
``simulator.matchloop``): it plays as the reference engine does, compared move for move,
fuzzed, and on the hand-worked scenarios."""
