"""The rule book: cards and rank order, the house-rule options, presets, rules files, roles."""
