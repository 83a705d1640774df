"""Readable notation for the hand-worked scenario tests (see :mod:`tests.scenarios.notation`)."""
