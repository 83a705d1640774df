"""Strategies: specs and ids, plain-Python and numba strategies, the search player, the registry."""
