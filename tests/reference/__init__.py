"""Tests of the reference engine (``simulator.reference``): hand-worked scenarios, the
independent oracle, invariants and the rule book's worked examples."""
