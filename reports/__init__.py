"""Analytics of simulation runs: streaming tallies, estimates with intervals, the HTML report.

``data`` reads a run directory in chunks of whole matches, ``tally`` turns a chunk into
additive sums by batch of matches, ``estimates`` and ``markov`` turn the sums into
estimates with 95 % intervals (method in ``stats``), ``figures`` draws them, and
``build`` writes ``DIR/report.html``.
"""
