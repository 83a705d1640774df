"""One match of a run played again on the reference engine, as the kernel plays it.

The plain-Python engine of a run (:func:`simulator.runs.local.python_engine`) and the
replay of a user's fault (:mod:`simulator.matchloop.userchain`) both play a run's match
``m`` this way: the line-up turned as the kernel turns it under duplicate deals, the
deals and streams of :func:`simulator.matchloop.seating.reference_options`, and every
strategy behind the one guard (:class:`strategies.guard.Guarded`).
"""

from __future__ import annotations

from collections.abc import Sequence

from simulator.matchloop.seating import group_size, lineup_slot, reference_options
from simulator.reference.match import MatchRecord, play_match
from simulator.rules.options import Rules
from strategies.guard import Guarded
from strategies.registry import make
from strategies.specs import StrategyError


def replay_match(
    rules: Rules,
    strategies: Sequence[str],
    seed: int,
    match: int,
    rounds_per_match: int | None,
    max_rounds: int,
    duplicate: bool,
) -> MatchRecord:
    """Match ``match`` of the run of ``strategies`` (seat by seat) on the reference engine.

    A strategy's fault is raised as a StrategyError that names the match.
    """
    n = rules.players
    group = group_size(strategies, duplicate)
    names = [strategies[lineup_slot(p, match, n, group)] for p in range(n)]
    try:
        return play_match(
            rules,
            [Guarded(s, make(s, rules)) for s in names],
            seed,
            match,
            rounds=rounds_per_match,
            max_rounds=max_rounds,
            **reference_options(match, group, n, duplicate),
        )
    except StrategyError as exc:
        raise StrategyError(f"match {match}: {exc}") from None
