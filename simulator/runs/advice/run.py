"""``president advise``: tips mined from ``champion``, each measured, in a folder that resumes.

The steps, each kept in ``OUT`` as it ends, so that the same command again carries on
where an interrupted one stopped (``state.json`` holds every measurement by name):

1. **mine** — ``champion``'s decisions against the simple player (:mod:`.mine`), by parts
   of :data:`PART` matches (``decisions/round-K-part-NNNNNN.parquet``), each beside the
   move of the simple player following the tips found so far;
2. **candidates** — the tips the decisions support (:mod:`.learn`), deterministic;
3. **select** — each of the :attr:`Advice.candidates` best supported, measured after the
   tips so far against the simple player (:mod:`.measure`), and before them; then, best
   first, each that helps is added where it helped when the tips together gain more by
   about a standard error (the order is the tips' order of play: a tip placed first can
   keep the tips of an earlier round from spoiling a good move of the simple player, as
   a four of a kind that "lead the next weakest" would break). Steps 1 to
   3 are one learning round, which ends by moving each bound of the chosen tips by one
   where that gains more (:func:`refine`); the next learns what the tips so far still
   miss (:attr:`Advice.rounds`), from refined tips (tips added to mend a bound a round
   left too wide would crowd out better ones);
4. **prove** — on fresh deals (another seed than the selection's, so the figures are not
   the ones the choice was made on): each chosen tip against the same player without it
   (the simple player following the other tips), the tips together against the simple
   player, and ``champion``; a tip whose interval holds 0 there is not shown;
5. **base** — each shown tip under the rule book's base game, to tell the tips that
   exist because of these rules (:func:`on_base`).

Seeds: ``seed`` mines, ``seed + 1`` selects, ``seed + 2`` proves.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import pandas as pd

from simulator.errors import PresidentError
from simulator.rules.files import to_toml
from simulator.rules.options import Rules
from simulator.runs.advice.learn import OPEN, Tip, candidates, tips_file
from simulator.runs.advice.measure import BASELINE, Table, Worth
from simulator.runs.advice.mine import Field, decisions
from simulator.runs.claims import write_json_atomic
from strategies.specs import ADVISED_TIPS

PART = 100  # matches per part of the mined decisions
FORMAT = "president-advice-1"
Say = Callable[[str], None]


class AdviceError(PresidentError):
    """An advice folder that belongs to another question, or is unreadable."""


@dataclass(frozen=True)
class Advice:
    """One ``president advise`` question: the rules, the simple player and the sizes."""

    rules: Rules
    seed: int = 0
    mined: int = 600  # matches of champion's decisions
    candidates: int = 100  # best-supported candidates measured (a second or two each)
    matches: int = 8000  # per measurement of a tip (whole deal groups)
    champion_matches: int = 1200  # per measurement of champion (a search: slower)
    rounds_per_match: int = 10
    simple: str = "rules-aware"
    workers: int = 2
    rounds: int = 2  # of learning: each learns what the tips so far still miss

    def __post_init__(self) -> None:
        for name in ("mined", "candidates", "matches", "champion_matches", "rounds_per_match",
                     "rounds"):  # fmt: skip
            if getattr(self, name) < 1:
                flag = "--" + name.replace("_", "-")
                raise AdviceError(f"{flag} must be at least 1, not {getattr(self, name)}")

    def key(self) -> dict[str, Any]:
        """What a folder must have been asked to be resumed (the workers may change)."""
        mine = {k: v for k, v in asdict(self).items() if k not in ("rules", "workers")}
        return {"format": FORMAT, "rules": to_toml(self.rules), **mine}

    def table(self, offset: int) -> Table:
        """The measuring table seeded ``seed + offset``."""
        rules, simple, rpm = self.rules, self.simple, self.rounds_per_match
        return Table(rules, simple, self.seed + offset, rpm, self.workers)


@dataclass
class Folder:
    """``OUT`` of a run: its state (measurements by name) and its files."""

    out: Path
    advice: Advice
    state: dict[str, Any] = field(default_factory=dict)

    def open(self) -> None:
        """Start or resume: a folder holding another question is refused in one line."""
        path = self.out / "state.json"
        if path.exists():
            try:
                self.state = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                raise AdviceError(f"{path} is not an advice state: {exc}") from None
            if self.state.get("key") != self.advice.key():
                raise AdviceError(
                    f"{self.out} holds advice for another question (rules, seed or sizes): "
                    "use another --out, or the same options as the run that made it"
                )
        else:
            self.out.mkdir(parents=True, exist_ok=True)
            self.state = {"key": self.advice.key(), "worths": {}}
            self.save()

    def save(self) -> None:
        write_json_atomic(self.out / "state.json", self.state)

    def worth(self, name: str, measure: Callable[[], Worth], say: Say, what: str) -> Worth:
        """The measurement ``name``, made once (``say(what)`` then) and kept."""
        kept = self.state["worths"].get(name)
        if kept is None:
            say(what)
            kept = asdict(measure())
            self.state["worths"][name] = kept
            self.save()
        return Worth(**kept)


def mine(folder: Folder, say: Say, step: int, tips: list[Tip]) -> pd.DataFrame:
    """Step 1: the decisions, each part played once; beside champion's moves, those of the
    simple player following ``tips`` (learning round ``step``, from 0)."""
    a = folder.advice
    compared = _file(folder, tips, f"round-{step}") if tips else ""
    field_ = Field(a.rules, a.seed, a.rounds_per_match, simple=a.simple, compared=compared)
    parts = []
    for lo in range(0, a.mined, PART):
        path = folder.out / "decisions" / f"round-{step}-part-{lo:06d}.parquet"
        if not path.exists():
            say(f"learning round {step + 1} of {a.rounds}: champion's decisions, matches "
                f"{lo:,} to {min(lo + PART, a.mined):,} of {a.mined:,}")  # fmt: skip
            part = decisions(field_, lo, min(lo + PART, a.mined))
            path.parent.mkdir(exist_ok=True)
            tmp = path.with_name(f".{path.name}.tmp")
            part.to_parquet(tmp)
            tmp.replace(path)
        parts.append(pd.read_parquet(path))
    return pd.concat(parts, ignore_index=True)


def select(folder: Folder, found: list[Tip], say: Say, base: list[Tip]) -> list[Tip]:
    """Step 3: the candidates that help after the tips ``base``, then greedily together."""
    a = folder.advice
    table = a.table(1)
    best = _worth(folder, table, base, say, "the tips so far").estimate if base else 0.0
    alone = []
    total = min(len(found), a.candidates)
    for i, tip in enumerate(found[:total]):
        for first in (False, True) if base else (False,):
            trial = [tip, *base] if first else [*base, tip]
            w = _worth(folder, table, trial, say, f"candidate tip {i + 1} of {total}")
            if w.high < best:
                alone.append((w.estimate, tip, first))
    chosen = list(base)
    for _, tip, first in sorted(alone, key=lambda found_: found_[0]):
        if len(chosen) == ADVISED_TIPS:
            break
        if tip in chosen:  # it helped both first and last
            continue
        trial = [tip, *chosen] if first else [*chosen, tip]
        w = _worth(folder, table, trial, say, f"{len(trial)} tips together")
        if w.estimate < best - (w.high - w.low) / 4:  # about a standard error more
            chosen, best = trial, w.estimate
    return chosen


def refine(folder: Folder, chosen: list[Tip], say: Say) -> list[Tip]:
    """Step 3b: each finite bound of each chosen tip moved by one (``cards <= 4`` tried as
    ``<= 3`` and ``<= 5``), kept where the tips together gain about a standard error more:
    the trees cut where their leaves are purest, not where the play gains most."""
    if not chosen:
        return chosen
    table = folder.advice.table(1)
    best = _worth(folder, table, chosen, say, "the chosen tips").estimate
    for i in range(len(chosen)):
        for j in range(len(chosen[i].conditions)):
            for trial in _moved(chosen, i, j):
                w = _worth(folder, table, trial, say, f"tip {i + 1} with a bound moved")
                if w.estimate < best - (w.high - w.low) / 4:
                    chosen, best = trial, w.estimate
    return chosen


def _moved(tips: list[Tip], i: int, j: int) -> list[list[Tip]]:
    """``tips`` with condition ``j`` of tip ``i`` one step wider or narrower at each
    finite bound (a free bound stays free)."""
    tip = tips[i]
    c = tip.conditions[j]
    bounds = []
    if c.lowest > OPEN[0]:
        bounds += [(c.lowest - 1, c.highest), (c.lowest + 1, c.highest)]
    if c.highest < OPEN[1]:
        bounds += [(c.lowest, c.highest - 1), (c.lowest, c.highest + 1)]
    out = []
    for lo, hi in bounds:
        if lo > hi:
            continue
        conditions = list(tip.conditions)
        conditions[j] = replace(c, lowest=lo, highest=hi)
        out.append([*tips[:i], replace(tip, conditions=tuple(conditions)), *tips[i + 1 :]])
    return out


def _worth(folder: Folder, table: Table, tips: list[Tip], say: Say, what: str) -> Worth:
    """``advised`` with ``tips`` measured at ``table`` (once; kept by the tips' names)."""
    name = f"{table.seed}/" + "+".join(t.key for t in tips)
    return folder.worth(name, _measure(folder, table, tips), say, f"measuring {what}")


def prove(folder: Folder, chosen: list[Tip], say: Say) -> tuple[list[Tip], dict[str, Worth]]:
    """Step 4, on fresh deals: each chosen tip against the same player without it (the
    simple player following the other tips: a tip that keeps an earlier one from spoiling
    a good move is worth what it saves); while one's interval holds 0, the least worth is
    left out and the others measured again. Then the tips shown together against the
    simple player, and champion."""
    a = folder.advice
    table = a.table(2)
    champion = folder.worth(f"{table.seed}/champion",
                            lambda: table.worth("champion", a.champion_matches),
                            say, "measuring champion against the simple player on fresh deals")  # fmt: skip
    worths = {"champion": champion}
    shown = list(chosen)
    while shown:
        named = "+".join(t.key for t in shown)
        for i, tip in enumerate(shown, start=1):
            others = [t for t in shown if t != tip]
            worths[tip.key] = folder.worth(f"{table.seed}/{named}/without/{tip.key}",
                                           _measure(folder, table, shown, others), say,
                                           f"measuring tip {i} of {len(shown)} on fresh deals")  # fmt: skip
        worst = max(shown, key=lambda t: worths[t.key].high)
        if worths[worst.key].high < 0:
            break
        shown.remove(worst)
    if not shown:  # nothing to follow: the simple player itself
        worths["together"] = Worth(0.0, 0.0, 0.0, 0, 0, 0.0)
        return shown, worths
    worths["together"] = _worth(folder, table, shown, say, "the tips together on fresh deals")
    return shown, worths


def on_base(folder: Folder, shown: list[Tip], say: Say) -> dict[str, Worth]:
    """Step 5: each shown tip under the rule book's base game (:class:`Rules` with its
    defaults, the same players), on fresh deals: a tip that gains nothing there exists
    because of these rules (``base/KEY``; none when these rules are the base game)."""
    a = folder.advice
    base = Rules().with_options(players=a.rules.players)
    if base == a.rules:
        return {}
    table = Table(base, a.simple, a.seed + 2, a.rounds_per_match, a.workers)
    return {f"base/{tip.key}": folder.worth(f"base/{tip.key}", _measure(folder, table, [tip]), say,
                                            f"measuring tip {i} under the base game")
            for i, tip in enumerate(shown, start=1)}  # fmt: skip


def _measure(folder: Folder, table: Table, tips: list[Tip],
             before: list[Tip] | None = None) -> Callable[[], Worth]:  # fmt: skip
    """The measurement of ``advised`` with ``tips`` against the simple player, or against
    ``advised`` with the tips ``before`` (trial files, written when it is made)."""

    def measure() -> Worth:
        baseline = _file(folder, before, "before") if before else BASELINE
        return table.worth(_file(folder, tips, "trial"), folder.advice.matches, baseline)

    return measure


def _file(folder: Folder, tips: list[Tip], name: str) -> str:
    """``advised`` with ``tips`` as a tips file in the folder (a strategy name)."""
    about = {"made_by": "president advise", "seed": folder.advice.seed}
    return tips_file(tips, folder.advice.rules, folder.out / "tips" / f"{name}.toml", about)


@dataclass(frozen=True)
class Found:
    """What a run found: the shown tips in their order, every proof, and the decisions."""

    tips: list[Tip]
    worths: dict[str, Worth]
    decisions: pd.DataFrame
    tips_path: str


def advise(advice: Advice, out: Path, say: Say) -> Found:
    """Run (or resume) the four steps in ``out``; write ``out/tips.toml``."""
    folder = Folder(out, advice)
    folder.open()
    chosen: list[Tip] = []
    frames = []
    for step in range(advice.rounds):
        frames.append(mine(folder, say, step, chosen))
        chosen = refine(folder, select(folder, candidates(frames[-1]), say, chosen), say)
    shown, worths = prove(folder, chosen, say)
    worths |= on_base(folder, shown, say)
    about = {"made_by": "president advise", "seed": advice.seed, "simple": advice.simple}
    path = tips_file(shown, advice.rules, out / "tips.toml", about)
    return Found(shown, worths, frames[0], path)  # the decisions against the simple player
