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

from collections.abc import Iterable


class PresidentError(ValueError):
    """A mistake in what the user gave (options, files, folders, strategies); the
    message, one line, says what is wrong and what is allowed."""


def did_you_mean(word: str, allowed: Iterable[str]) -> str:
    """``", did you mean 'X'?"`` when ``word`` is close to one of ``allowed`` (difflib's
    closeness), else ``""``: to follow the unknown word in a message, so that a misspelt
    key or name is one glance from its fix rather than a search through the allowed list."""
    from difflib import get_close_matches  # only when a message is being written

    close = get_close_matches(word, list(allowed), n=1)
    return f", did you mean {close[0]!r}?" if close else ""
