"""The measures of skill of ``president atlas`` and ``compare --skill``, with their 95 %
intervals: kept together, apart from the runs that play the games they measure.
"""
