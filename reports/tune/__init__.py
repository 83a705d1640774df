"""``president tune``'s page, beside :mod:`simulator.runs.tune` whose search it shows
(a sub-package like every command's own pages, apart from the run report's modules at
the top of :mod:`reports`).
"""
