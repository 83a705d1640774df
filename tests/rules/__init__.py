"""Tests of the rule book: cards, options, presets, rules files, roles (``simulator.rules``)."""
