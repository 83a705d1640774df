"""``president tournament``'s run: its tables and their play, its folder and the
orchestration, apart from the simulate run's modules at the top of :mod:`simulator.runs`
(the standings it ends with are shared with the report: :mod:`simulator.runs.standings`).
"""
