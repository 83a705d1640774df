"""Tests of runs (``simulator.runs``): simulate, resume, the Dask engine, tournaments."""
