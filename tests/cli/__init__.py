"""Tests of the command line (``simulator.cli``) and the applications it drives."""
