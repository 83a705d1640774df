"""Analytics of simulation runs: streaming tallies, estimates with intervals, the HTML pages.

``data`` reads a run directory in chunks of whole matches, ``chunk_sums`` turns a chunk
into additive sums by batch of matches, ``estimates`` and ``markov`` turn the sums into
estimates with 95 % intervals (method in ``stats``), ``figures`` draws them, and
``build`` writes ``DIR/report.html``: ``headline`` says what the run shows in words,
``settings`` gives the rules in words, ``sections`` lays out the details and ``glossary``
defines the terms, all through ``html``; ``numbers`` gives every estimate the digits its
interval needs and ``colours`` every strategy its one colour. The other pages are built
the same way, each in the sub-package of its feature: ``compare``, ``strategy`` (the
strategy report and a tournament's text), ``atlas`` and ``tune``.
"""
