"""``python -m simulator`` runs the same command line as ``president``."""

from simulator.cli import main

main()
