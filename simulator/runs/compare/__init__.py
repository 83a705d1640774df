"""``president compare``'s run: the variants (one simulate run per rule set, on the same
deals) and the orchestration; reading them side by side is :mod:`reports.compare`'s.
"""
