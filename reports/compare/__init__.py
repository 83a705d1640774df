"""``president compare``'s analysis: the variants read side by side, their page, figures
and text, apart from the run report's modules at the top of :mod:`reports`.
"""
