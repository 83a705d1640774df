"""What a player gains, in places per round, against the same player without the change.

A *subject* (``advised`` with some tips, or ``champion``) sits at one seat, the simple
player at the others, on duplicate deals (the line-up turns through the seats, each deal
group played once per seat: :mod:`simulator.matchloop.seating`). The *baseline* is the
same table with ``advised`` and no tip, which is the simple player move for move: the
same deals, the same streams, so a round the subject plays as the baseline does has
the same places, and the difference is the change's own. A match's rounds depend on
each other and a deal group's matches share their deals, so the difference is averaged
per deal group and the interval is over groups (:func:`simulator.stats.mean_interval`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simulator.matchloop.api import KernelJob, run_matches, set_threads
from simulator.matchloop.matches import OUT_MATCH, SEAT_PLACE, seats
from simulator.matchloop.seating import group_size, player_in_slot
from simulator.rules.options import Rules
from simulator.stats import mean_interval

BASELINE = "advised"  # with no tip: the simple player, move for move


@dataclass(frozen=True)
class Worth:
    """A subject's places per round against the baseline: ``estimate`` and its 95 %
    interval (negative: fewer places, better), over ``groups`` deal groups of
    ``rounds`` rounds in all, and the share of rounds whose place differs from the
    baseline's (``changed``: how often the change changes a result)."""

    estimate: float
    low: float
    high: float
    groups: int
    rounds: int
    changed: float

    @property
    def holds_zero(self) -> bool:
        """Whether the interval holds 0: no gain or loss shown."""
        return self.low <= 0.0 <= self.high


@dataclass(frozen=True)
class Table:
    """Where subjects are measured: the rules, the simple player, the seed and sizes."""

    rules: Rules
    simple: str
    seed: int
    rounds_per_match: int
    workers: int

    def places(self, subject: str, matches: int) -> tuple[np.ndarray, np.ndarray]:
        """Per round of matches ``[0, matches)``: the subject's place and its match."""
        n = self.rules.players
        lineup = [subject, *[self.simple] * (n - 1)]
        job = KernelJob.build(
            self.rules, lineup, self.seed, self.rounds_per_match, 1000, duplicate=True
        )
        set_threads(self.workers)
        rows = run_matches(job, 0, matches)
        match = rows[:, OUT_MATCH].astype(np.int64)
        player = player_in_slot(0, match, n, group_size(lineup, True))
        place = seats(rows, SEAT_PLACE, n)[np.arange(len(rows)), player]
        return place.astype(np.float64), match

    def worth(self, subject: str, matches: int, baseline: str = BASELINE) -> Worth:
        """The subject's :class:`Worth` over ``matches`` matches (whole deal groups),
        against ``baseline`` in its seat (by default the simple player)."""
        group = self.rules.players  # the line-up subject + simple players turns n times
        matches = max(group, matches - matches % group)
        place, match = self.places(subject, matches)
        base, base_match = self.places(baseline, matches)
        if not np.array_equal(match, base_match):  # a target: matches end at other rounds
            return _by_match(place, match, base, base_match, group)
        diff = place - base
        return _grouped(diff, match // group, len(diff), float(np.mean(diff != 0)))


def _grouped(diff: np.ndarray, groups: np.ndarray, rounds: int, changed: float) -> Worth:
    """The :class:`Worth` of differences ``diff`` averaged per deal group ``groups`` (the
    independent units), over ``rounds`` rounds."""
    per_group = np.bincount(groups, diff) / np.bincount(groups)
    estimate, low, high, _ = mean_interval(per_group)
    return Worth(estimate, low, high, len(per_group), rounds, changed)


def _by_match(place: np.ndarray, match: np.ndarray, base: np.ndarray, base_match: np.ndarray,
              group: int) -> Worth:  # fmt: skip
    """:meth:`Table.worth` when the two runs' matches last different numbers of rounds
    (under a points target): each match's mean place per round, paired by match."""
    mine = np.bincount(match, place) / np.bincount(match)
    theirs = np.bincount(base_match, base) / np.bincount(base_match)
    diff = mine - theirs
    return _grouped(diff, np.arange(len(diff)) // group, len(place), float(np.mean(diff != 0)))
