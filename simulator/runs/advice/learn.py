"""Candidate tips: where ``champion`` makes a kind of play the simple player does not.

For each play of :data:`strategies.advice.PLAYS`, the decisions where it names a move
other than the simple player's are kept, labelled by whether ``champion`` made it; a
decision tree of depth 2 (scikit-learn) learns from what a person sees
(:data:`strategies.advice.VIEW`) when it does. Each leaf where ``champion`` makes that play
more than half as often as the simple player's move (:data:`SHARE`) becomes a candidate
tip: the leaf's path as at most two conditions, and the play. Trees of depth 2 keep every
tip two conditions long, which a person can hold in mind and the ``advised`` strategy's
row holds (:data:`strategies.specs.TIP_WIDTH`).
Whether a candidate helps is not decided here but measured (:mod:`.measure`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from sklearn.tree import DecisionTreeClassifier

from simulator.rules.options import Rules
from simulator.runs.advice.mine import VIEW_COLUMNS
from strategies.advice import PLAYS
from strategies.registry import get
from strategies.specs import ADVISED_TIPS, TIP_SLOT, TIP_WIDTH
from strategies.tuned import tuned_text

OPEN = (0.0, 99.0)  # a condition's bounds when one side is free (every value lies inside)
DEPTH = 2  # conditions per tip at most: TIP_WIDTH holds two
# A leaf is a candidate where champion makes its play more than this many times as often
# as the simple player's move. At 1 (more often than not) every pass under french was
# left out: champion passes often, but seldom more often than it plays, and the best tip
# there is a pass (+0.2 places a round). Whether a candidate helps is measured anyway.
SHARE = 0.5


@dataclass(frozen=True)
class Condition:
    """``lowest <= VIEW[place - 1] <= highest`` (places from 1, as the kernel reads)."""

    place: int
    lowest: float
    highest: float

    @property
    def name(self) -> str:
        """What it reads, by name (:data:`strategies.advice.VIEW`)."""
        return VIEW_COLUMNS[self.place - 1]


@dataclass(frozen=True)
class Tip:
    """When ``conditions`` hold, make play ``play`` (:data:`strategies.advice.PLAYS`, from
    1); learnt from ``rows`` decisions where it differs from the simple player's move, of
    which ``champion`` made the play in ``agree`` and the simple player's in ``kept``;
    ``simple`` names what the simple player did there most often."""

    play: int
    conditions: tuple[Condition, ...]
    rows: int
    agree: int
    kept: int  # of the rows, where champion made the simple player's move
    simple: str

    @property
    def share(self) -> float:
        """How often ``champion`` made the play where the tip applies and differs."""
        return self.agree / self.rows

    @property
    def key(self) -> str:
        """A short stable name: the play, then each condition."""
        parts = [PLAYS[self.play - 1][0]]
        for c in self.conditions:
            parts.append(f"{c.name}{c.lowest:g}-{c.highest:g}")
        return "_".join(parts)

    def row(self) -> list[float]:
        """The tip's slots in ``advised``'s row: play, then two conditions."""
        slots = [float(self.play)]
        for i in range(DEPTH):
            c = self.conditions[i] if i < len(self.conditions) else None
            slots += [float(c.place), c.lowest, c.highest] if c else [0.0, *OPEN]
        return slots


def made(frame: pd.DataFrame, who: str, play: str) -> np.ndarray:
    """Whether ``who``'s move (``champion`` or ``simple``) is the one ``play`` names."""
    return (frame[f"{who}_rank"].to_numpy() == frame[f"{play}_rank"].to_numpy()) & (
        frame[f"{who}_count"].to_numpy() == frame[f"{play}_count"].to_numpy()
    )


def simple_kind(frame: pd.DataFrame) -> pd.Series:
    """The first play of :data:`PLAYS` that names the simple player's move, per row."""
    kind = pd.Series("other", index=frame.index)
    for name, _ in reversed(PLAYS):
        kind = kind.mask(made(frame, "simple", name), name)
    return kind


def candidates(frame: pd.DataFrame, least: int = 40, seed: int = 0) -> list[Tip]:
    """Every candidate tip the decisions ``frame`` (:mod:`.mine`'s rows) support, the
    most supported first (by how many more of its decisions ``champion`` made the tip's
    play in than the simple player's move)."""
    kinds = simple_kind(frame)
    found: dict[str, Tip] = {}
    for index, (name, _) in enumerate(PLAYS, start=1):
        exists = frame[f"{name}_count"].to_numpy() >= 0
        differs = exists & ~made(frame, "simple", name)
        rows = frame[differs]
        if len(rows) < least:
            continue
        y = made(rows, "champion", name)
        kept = made(rows, "champion", "simple")  # champion made the simple player's move
        grown = Grown(rows[VIEW_COLUMNS].to_numpy(), y, kept, kinds[differs].to_numpy(), least)
        for tip in grown.tips(index, seed):
            found.setdefault(tip.key, tip)
    ranked = sorted(found.values(), key=lambda t: (-(t.agree - t.kept), t.key))
    return interleaved(distinct(ranked, frame))


def applies(tip: Tip, frame: pd.DataFrame) -> np.ndarray:
    """Where in the decisions ``frame`` the tip makes its play: its conditions hold and
    its play exists."""
    where = frame[f"{PLAYS[tip.play - 1][0]}_count"].to_numpy() >= 0
    for c in tip.conditions:
        values = frame[c.name].to_numpy()
        where &= (values >= c.lowest) & (values <= c.highest)
    return where


def distinct(tips: list[Tip], frame: pd.DataFrame) -> list[Tip]:
    """The tips in order, each without a condition that changes nothing in the decisions
    ``frame`` (it would only lengthen the sentence), and only the first of those that
    make the same play in the same decisions (the same tip in other words: measuring it
    twice would crowd out a different one)."""
    seen: set[tuple[int, bytes]] = set()
    kept = []
    for tip in tips:
        where = applies(tip, frame)
        for c in tip.conditions:
            shorter = replace(tip, conditions=tuple(d for d in tip.conditions if d != c))
            if np.array_equal(applies(shorter, frame), where):
                tip = shorter
        mark = (tip.play, np.packbits(where).tobytes())
        if mark not in seen and where.any():
            seen.add(mark)
            kept.append(tip)
    return kept


def interleaved(tips: list[Tip]) -> list[Tip]:
    """The tips, each play's best supported first, then each play's second…: the first
    few then hold every kind of play, not only the variants of the one most supported."""
    by_play: dict[int, list[Tip]] = {}
    for tip in tips:
        by_play.setdefault(tip.play, []).append(tip)
    rounds = max((len(v) for v in by_play.values()), default=0)
    return [v[i] for i in range(rounds) for v in by_play.values() if i < len(v)]


@dataclass(frozen=True)
class Grown:
    """The decisions where one play differs from the simple player's move: what a person
    sees (``x``), whether ``champion`` made the play (``y``) or the simple player's move
    (``kept``), and the simple player's kind of move (``kinds``)."""

    x: np.ndarray
    y: np.ndarray
    kept: np.ndarray
    kinds: np.ndarray
    least: int  # decisions a leaf holds at least

    def tips(self, play: int, seed: int) -> list[Tip]:
        """Trees of depth 2 whose first question is each thing a person sees in turn (a
        free tree asks the same first question for most plays, and misses the rest),
        their leaves and halves as tips where ``champion`` made the play more than
        :data:`SHARE` times as often as the simple player's move."""
        everything = np.ones(len(self.y), dtype=bool)
        tips = []
        for first in range(self.x.shape[1]):
            for one, half in self._halves(everything, [first], seed):
                tips.append(self._tip(play, (one,), half))
                for two, leaf in self._halves(half, range(self.x.shape[1]), seed):
                    tips.append(self._tip(play, _merged(one, two), leaf))
        return [t for t in tips if t.agree > SHARE * t.kept]

    def _halves(self, inside: np.ndarray, columns, seed: int) -> list[tuple[Condition, np.ndarray]]:
        """The two halves of the best split of the rows ``inside`` on ``columns`` (a tree
        of depth 1), each as its condition and rows; none when no split is worth it."""
        columns = list(columns)
        tree = DecisionTreeClassifier(max_depth=1, min_samples_leaf=self.least, random_state=seed)
        tree.fit(self.x[inside][:, columns], self.y[inside])
        if tree.tree_.node_count < 3:
            return []
        place = columns[int(tree.tree_.feature[0])] + 1
        values = self.x[:, place - 1]
        # cut just below the first value seen above the tree's threshold, so that a bound
        # is a value the table shows ("you lead" is 20 cards of the owner, not "17 or more")
        cut = float(values[values > tree.tree_.threshold[0]].min()) - 1
        below = Condition(place, OPEN[0], cut)
        above = Condition(place, cut + 1, OPEN[1])
        return [(below, inside & (values <= cut)), (above, inside & (values > cut))]

    def _tip(self, play: int, conditions: tuple[Condition, ...], rows: np.ndarray) -> Tip:
        simple = pd.Series(self.kinds[rows]).mode().iat[0]
        return Tip(play, conditions, int(rows.sum()), int(self.y[rows].sum()),
                   int(self.kept[rows].sum()), simple)  # fmt: skip


def _merged(one: Condition, two: Condition) -> tuple[Condition, ...]:
    """Two conditions as a tip holds them: one per thing read, in the order of VIEW."""
    if one.place == two.place:
        return (Condition(one.place, max(one.lowest, two.lowest), min(one.highest, two.highest)),)
    return tuple(sorted((one, two), key=lambda c: c.place))


def advised_values(tips: list[Tip]) -> tuple[float, ...]:
    """``advised``'s parameter values for ``tips`` in order (the first that applies plays):
    ``rules-aware``'s defaults, then the tips' slots, the unused ones 0."""
    spec = get("advised")
    values = list(spec.vector)
    if len(tips) > ADVISED_TIPS:
        raise ValueError(f"at most {ADVISED_TIPS} tips, not {len(tips)}")
    for i, tip in enumerate(tips):
        values[TIP_SLOT + TIP_WIDTH * i : TIP_SLOT + TIP_WIDTH * (i + 1)] = tip.row()
    return tuple(values)


def tips_file(tips: list[Tip], rules: Rules, path: Path, about: dict[str, Any]) -> str:
    """Write ``advised`` with ``tips`` as a tuned file at ``path`` (a strategy name any
    command takes: ``--strategies PATH``); returns the name."""
    text = tuned_text(get("advised"), advised_values(tips), rules, about)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return str(path)


def tips_of(values: tuple[float, ...]) -> list[Tip]:
    """The tips an ``advised`` row holds (the inverse of :func:`advised_values`; the
    counts a tip was learnt from are not in the row and read 0)."""
    tips = []
    for i in range(ADVISED_TIPS):
        slots = values[TIP_SLOT + TIP_WIDTH * i : TIP_SLOT + TIP_WIDTH * (i + 1)]
        if not slots or slots[0] == 0:
            break
        conditions = tuple(
            Condition(int(slots[k]), slots[k + 1], slots[k + 2]) for k in (1, 4) if slots[k]
        )
        tips.append(Tip(int(slots[0]), conditions, 0, 0, 0, ""))
    return tips
