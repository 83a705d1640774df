"""The strategy standings shown: the strategy page of ``president tournament --report``
and of ``president report``'s strategy section, its figures, its words (shared with the
run's headline) and the tournament's text, apart from the run report's modules at the
top of :mod:`reports`.
"""
