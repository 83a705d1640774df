"""``president tune``'s run: the search space and its play, the CMA-ES search, the folder
and the orchestration, apart from the simulate run's modules at the top of
:mod:`simulator.runs`.
"""
