"""Runs: the job, the output schema and summary, the output folder, the engines, simulate and
tournament, and each command's orchestration shared with the Python API (the ``*_run``
modules, telling their progress to the callbacks of ``progress``)."""
