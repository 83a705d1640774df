"""The one base class of every error a user can cause.

A bad option, rules file, strategy, run folder or game file raises a subclass of
:class:`PresidentError` in the layer that finds the mistake (``RulesError``,
``StrategyError``, ``SimulationError``, ``TournamentError``, ``ReportError``,
``GameError``, …). Its message is the whole story in one line: what is wrong and what
is allowed. The command line translates it once, in :func:`simulator.cli.main`, to that
line on standard error and exit code 2; no command converts it on its own, and a
command adds to the message only where it knows more (e.g. the command that resumes).

It is a :class:`ValueError`, as each of these errors was before there was one base.
"""

from __future__ import annotations


class PresidentError(ValueError):
    """A mistake in what the user gave (options, files, folders, strategies); the
    message, one line, says what is wrong and what is allowed."""
