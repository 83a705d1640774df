"""The job of a run: what determines its data, checked and with its defaults resolved.

A :class:`SimConfig` is everything that decides a run's rows (rules, strategies per seat,
seed, sizes, duplicate deals); workers, engines and the output folder do not. It is
written into the manifest and ``summary.json`` so that any run can be repeated exactly.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from simulator.errors import PresidentError
from simulator.matchloop.seating import group_size, lineup_slot
from simulator.reference.match import MAX_ROUNDS
from simulator.rules.files import rules_from_mapping
from simulator.rules.options import Rules, RulesError
from simulator.stats import batch_units
from strategies.registry import per_seat
from strategies.specs import StrategyError

if TYPE_CHECKING:
    from simulator.matchloop.api import KernelJob

PART_ROUNDS = 250_000  # rounds per part (whole matches); 10 M rounds of 5 players peak at 0.6 GiB
DEFAULT_ROUNDS = 1_000_000
DEFAULT_ROUNDS_PER_MATCH = 10
# the strategies of a run that names none: heuristics against the rule book's baselines
BASELINES = ("lowest", "random")
HEURISTICS = ("rules-aware", "planner", "control", "keep-sets", "shed-max")
Range = tuple[int, int]  # the matches [lo, hi) of a part


def default_strategies(players: int) -> list[str]:
    """The line-up of a run that names no strategies: the heuristics on every seat but
    two, then the baselines ``lowest`` and ``random`` (4 players: ``rules-aware``,
    ``planner``, ``lowest``, ``random``), so that the main job shows what playing well is
    worth, not only the gap between the two baselines."""
    heuristics = [HEURISTICS[i % len(HEURISTICS)] for i in range(max(0, players - 2))]
    return heuristics + list(BASELINES)


class SimulationError(PresidentError):
    """A simulation that cannot be run as asked; the message says why."""


def require_integers(data: Any, keys: tuple[str, ...], optional: bool = False) -> None:
    """Raise TypeError unless each ``data[key]`` is an int (or None when ``optional``):
    the check a job read back from JSON passes before it is validated as the command line
    would be (a bool is no integer here; KeyError for a missing key)."""
    allowed = int | None if optional else int
    for key in keys:
        if not isinstance(data[key], allowed) or isinstance(data[key], bool):
            raise TypeError(f"{key} = {data[key]!r} is not an integer")


@dataclass(frozen=True)
class SimConfig:
    """Everything that determines a run's data (workers do not)."""

    rules: Rules
    strategies: tuple[str, ...]
    seed: int = 0
    matches: int | None = None  # None: play until ``rounds`` rounds
    rounds: int | None = None  # total rounds wanted when ``matches`` is None
    rounds_per_match: int | None = DEFAULT_ROUNDS_PER_MATCH  # None under a target
    max_rounds: int = MAX_ROUNDS  # cut for matches under a target
    duplicate: bool = False  # groups of matches share deals, the line-up turning (seating.py)

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_dict(),
            "strategies": list(self.strategies),
            "seed": self.seed,
            "matches": self.matches,
            "rounds": self.rounds,
            "rounds_per_match": self.rounds_per_match,
            "max_rounds": self.max_rounds,
            "duplicate": self.duplicate,
        }

    @classmethod
    def from_json(cls, data: Any) -> SimConfig:
        """The job :meth:`to_json` wrote, validated as the command line would be."""
        try:
            require_integers(data, ("seed", "max_rounds", "matches", "rounds",
                                    "rounds_per_match"), optional=True)  # fmt: skip
            config = make_config(
                rules_from_mapping(data["rules"]),
                data["strategies"],
                data["seed"],
                data["matches"],
                data["rounds"],
                data["rounds_per_match"],
                data["max_rounds"],
                data["duplicate"],
            )
        except (KeyError, TypeError) as exc:
            raise SimulationError(f"the job is incomplete or malformed ({exc!r})") from None
        except (RulesError, StrategyError) as exc:
            raise SimulationError(f"the job is invalid: {exc}") from None
        if config.to_json() != data:
            raise SimulationError("the job does not read back to itself (edited by hand?)")
        return config

    @property
    def part_matches(self) -> int:
        """Matches per part: fixed by the job, so parts never depend on workers."""
        per_match = self.rounds_per_match or max(8, 4 * self.rules.target)
        return max(1, PART_ROUNDS // per_match // self.group) * self.group

    @property
    def expected_matches(self) -> int:
        """The matches of the run: as asked, or as many as ``rounds`` should take."""
        if self.matches is not None:
            return self.matches
        per_match = self.rounds_per_match or max(8, 4 * self.rules.target)
        return math.ceil((self.rounds or DEFAULT_ROUNDS) / per_match)

    @property
    def batch_matches(self) -> int:
        """Matches per batch of the intervals: whole duplicate groups (the independent
        units), sized for :data:`simulator.stats.BATCHES` batches of the matches expected;
        fixed by the job, so a target's matches ending sooner make more batches."""
        groups = -(-self.expected_matches // self.group)
        return self.group * batch_units(groups)

    @property
    def group(self) -> int:
        """Matches per duplicate group: the line-up's distinct rotations (1 without)."""
        return group_size(self.strategies, self.duplicate)

    def strategy_codes(self, match: np.ndarray) -> np.ndarray:
        """``[rows, n]``: index into ``names`` of each seat's strategy in each row's match.

        Under duplicate deals the strategies turn one seat per match of a group.
        """
        n = self.rules.players
        names = self.names
        base = np.array([names.index(s) for s in self.strategies])
        if self.group == 1:  # the line-up never turns: every row holds it as given
            return np.tile(base, (len(match), 1))
        players = np.arange(n)[None, :]
        return base[lineup_slot(players, match.astype(np.int64)[:, None], n, self.group)]

    def kernel_job(self) -> KernelJob:
        """The kernel's arrays for this job (one place, so every engine on the kernel agrees)."""
        from simulator.matchloop.api import KernelJob  # numba loads only when a kernel runs
        from simulator.runs.jitstart import load_numba

        load_numba()  # before the first jitted call, which would import scipy for nothing
        return KernelJob.build(
            self.rules,
            self.strategies,
            self.seed,
            self.rounds_per_match,
            self.max_rounds,
            self.duplicate,
        )

    @property
    def names(self) -> list[str]:
        """The distinct strategy names, in seat order."""
        return list(dict.fromkeys(self.strategies))


def make_config(
    rules: Rules,
    strategy_names: Sequence[str],
    seed: int = 0,
    matches: int | None = None,
    rounds: int | None = None,
    rounds_per_match: int | None = None,
    max_rounds: int = MAX_ROUNDS,
    duplicate: bool = False,
) -> SimConfig:
    """Validate the command-line view of a job and resolve its defaults."""
    n = rules.players
    names = per_seat(strategy_names, n)
    group = group_size(names, duplicate)
    check_sizes(matches, rounds, rounds_per_match, max_rounds)
    if rules.target:
        if rounds_per_match is not None:
            raise SimulationError(
                f"the rules have target = {rules.target}: matches end by the target rule "
                "(allowed: --max-rounds to cap them, or target = 0 with --rounds-per-match)"
            )
        if matches is None and rounds is None:
            rounds = DEFAULT_ROUNDS
        if matches is not None:
            matches = math.ceil(matches / group) * group  # whole duplicate groups
        return SimConfig(rules, tuple(names), seed, matches, rounds, None, max_rounds, duplicate)
    k = rounds_per_match or DEFAULT_ROUNDS_PER_MATCH
    matches = math.ceil(matches_wanted(matches, rounds, k) / group) * group  # whole groups
    return SimConfig(rules, tuple(names), seed, matches, None, k, max_rounds, duplicate)


def check_sizes(
    matches: int | None,
    rounds: int | None,
    rounds_per_match: int | None,
    max_rounds: int = MAX_ROUNDS,
) -> None:
    """Refuse sizes that cannot make a run: both counts given, or one that is not positive."""
    if matches is not None and rounds is not None:
        raise SimulationError("give --matches or --rounds, not both")
    for label, value in (
        ("--matches", matches),
        ("--rounds", rounds),
        ("--rounds-per-match", rounds_per_match),
        ("--max-rounds", max_rounds),
    ):
        if value is not None and value <= 0:
            raise SimulationError(f"{label} must be a positive integer, not {value}")


def matches_wanted(matches: int | None, rounds: int | None, rounds_per_match: int) -> int:
    """The matches of a run given in matches, or in rounds of ``rounds_per_match`` (default
    :data:`DEFAULT_ROUNDS`)."""
    return (
        matches if matches is not None else math.ceil((rounds or DEFAULT_ROUNDS) / rounds_per_match)
    )
