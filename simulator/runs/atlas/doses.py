"""The doses: known amounts of luck and of skill the atlas can add, to prove its measures.

They are measurement instruments, not house rules: no rule set holds them, no ordinary
run plays them, and the atlas applies them only when asked by name (``president atlas
--luck-dose P --skill-dose Q``; docs/skill.md derives what each measure should do).

* **A dose of luck p.** Each round a table plays keeps its places with chance 1 − p, and
  with chance p they are replaced by a uniformly random order (:func:`dose_luck`), before
  any sum is taken. The draws come from a counter-based stream addressed by (the atlas's
  seed, the table's seed, the match, the round): SplitMix64 started from a hash of them,
  word 0 deciding whether the round is dosed and words 1 … n ordering the seats, so a
  round's dose depends on nothing else — not the threads, the blocks, Dask or a resume.
  At p = 0 nothing is drawn and the rows are returned as they are.
* **A dose of skill q.** The top plays ``random``'s move with chance q at each decision:
  the ``dose`` parameter of ``champion`` and ``clairvoyant`` (:mod:`strategies.champion`),
  written into the top's kernel name by :func:`with_skill_dose`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from simulator.matchloop.matches import OUT_MATCH, OUT_ROUND, SEAT_PLACE, seats
from simulator.reference.rng import C1, C2, C3, C4, GOLDEN
from simulator.runs.atlas.sets import AtlasError

LUCK_PURPOSE = (
    15  # the dose of luck's stream, apart from the tables' (atlas.play.PURPOSE, atlas.mix.PURPOSE)
)
UNIT = 2.0**-53  # a 64-bit word's top 53 bits as a uniform draw in [0, 1)


@dataclass(frozen=True)
class Doses:
    """The dose of luck a table's rows take (0: none) and the atlas's seed, which keys its
    stream with the table's own seed. (The dose of skill is in the top rung's kernel
    name: :func:`with_skill_dose`.)"""

    luck: float = 0.0
    seed: int = 0


NO_DOSES = Doses()


def check_doses(luck: float, skill: float) -> None:
    """An AtlasError in one line for a dose outside [0, 1) (1 would leave nothing to
    measure: every round random, or the top playing as ``random``)."""
    for option, dose in (("--luck-dose", luck), ("--skill-dose", skill)):
        if not 0 <= dose < 1:
            raise AtlasError(f"{option} must be at least 0 and below 1, not {dose:g}")


def with_skill_dose(name: str, dose: float) -> str:
    """The kernel name ``name`` (``champion…`` or ``clairvoyant…``) playing with the dose
    of skill ``dose`` (unchanged at 0)."""
    if dose == 0:
        return name
    kept = re.sub(r"(?<=[:,])dose=[^,]*,?", "", name).rstrip(",:")  # a declared one gives way
    return f"{kept}{',' if ':' in kept else ':'}dose={float(dose)!r}"


def _mix(z: np.ndarray) -> np.ndarray:
    """SplitMix64's output function on uint64 arrays (:func:`simulator.reference.rng.mix`)."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(C1)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(C2)
    return z ^ (z >> np.uint64(31))


def round_words(
    seed: int, table_seed: int, match: np.ndarray, round_: np.ndarray, count: int
) -> np.ndarray:
    """``[rounds, count]`` 64-bit words of each round's stream: SplitMix64 started from
    the hash of (``seed``, ``table_seed``, match, round)."""
    key = np.random.SeedSequence([seed % 2**63, LUCK_PURPOSE, table_seed % 2**63])
    start = np.uint64(int(key.generate_state(1, np.uint64)[0]))
    m = np.asarray(match).astype(np.uint64)
    r = np.asarray(round_).astype(np.uint64)
    state = _mix(_mix(start ^ (m * np.uint64(C3))) ^ (r * np.uint64(C4)))
    steps = np.arange(1, count + 1, dtype=np.uint64) * np.uint64(GOLDEN)
    return _mix(state[:, None] + steps[None, :])


def dose_luck(rows: np.ndarray, n: int, doses: Doses, table_seed: int) -> np.ndarray:
    """The kernel ``rows`` of a table of ``n`` players with each round's places replaced,
    with chance ``doses.luck``, by a uniformly random order (a copy; the rows themselves
    when the dose is 0, without a draw)."""
    if doses.luck == 0:
        return rows
    words = round_words(doses.seed, table_seed, rows[:, OUT_MATCH], rows[:, OUT_ROUND], n + 1)
    dosed = (words[:, 0] >> np.uint64(11)) * UNIT < doses.luck
    order = np.argsort(np.argsort(words[dosed, 1:], axis=1), axis=1)  # each seat's rank
    out = rows.copy()
    seats(out, SEAT_PLACE, n)[dosed] = order + 1
    return out
