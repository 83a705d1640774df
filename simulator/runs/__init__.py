"""Runs: the job, the output schema and summary, the output folder, the engines and a
simulate run at the top; a sub-package per other command (``compare``, ``tournament``,
``tune``, ``atlas``, with ``skill`` the atlas's measures), each with its orchestration
shared with the Python API (its ``run`` module, telling its progress to the callbacks of
``progress``)."""
