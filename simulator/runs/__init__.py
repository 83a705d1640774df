"""Runs: the job, the output schema and summary, the output folder, the engines, simulate and tournament."""
