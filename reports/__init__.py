"""Analytics of simulation runs: streaming tallies, estimates with intervals, the HTML pages.

``data`` reads a run directory in chunks of whole matches, ``tally`` turns a chunk into
additive sums by batch of matches, ``estimates`` and ``markov`` turn the sums into
estimates with 95 % intervals (method in ``stats``), ``figures`` draws them, and
``build`` writes ``DIR/report.html``: ``summary`` says what the run shows in words,
``settings`` gives the rules in words, ``sections`` lays out the details and ``glossary``
defines the terms, all through ``html``; ``numbers`` gives every estimate the digits its
interval needs and ``colours`` every strategy its one colour. ``compare`` with ``compare_page`` and
``compare_figures``, and ``strategy_page`` with ``strategy_figures``, build the compare
page and the strategy report the same way.
"""
