"""Verdicts that hold: whether a rule set makes the game more about skill or luck than the
base, claimed only where every level of play agrees (docs/skill.md, "Verdicts that hold").

Measured, a verdict resting on one player that stands for skill did not survive a change
of that player: jack-back's relative skill against french turned from −0.047 to +0.047
(both with Holm-adjusted p < 0.001) when champion's defaults changed, spade's and scum's
with the search depth. So a verdict here asks every rung of the ladder from tuned linear
up (:data:`VERDICT_RUNGS`) and the ladder-wide rating (``skill_depth``, when the atlas
has its mixed tables) for the same sign, each with a Holm-adjusted p below :data:`ALPHA`:

* **more about skill**: every paired difference with the base above 0, each significant;
* **more about luck**: every one below 0, each significant;
* **depends on the level of play**: at least one significant but not all agreeing (the
  sentence then says what happens at each level);
* **no difference found**: none significant; **not compared**: the data hold no paired
  difference for the rule set (another table size, or the base alone).

Pure functions of the rows of ``atlas.parquet`` (:data:`~simulator.runs.atlas.play.COLUMNS`),
so that the page, the terminal, ``compare --skill`` and the Python API say the same.
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd

from simulator.runs.atlas.ladder import VERDICT_RUNGS

ALPHA = 0.05  # the Holm-adjusted p below which a paired difference counts
DEPTH = "skill_depth"  # the ladder-wide measure: rating(top) − rating(random)
SKILL, LUCK = "more about skill", "more about luck"
DEPENDS, NONE, UNPAIRED = "depends on the level of play", "no difference found", "not compared"
VERDICTS = (SKILL, LUCK, DEPENDS, NONE, UNPAIRED)  # the order the page says them in
LEVELS = {  # each level, as a sentence names it
    "linear": "with tuned linear",
    "champion_low": "with champion at ¼ of its search",
    "champion": "with champion",
    "champion_high": "with champion at 4 × its search",
    DEPTH: "in the skill depth (the ladder-wide rating)",
}
DECIMALS = 3  # of the differences in a sentence (the skill gap's targets are ±0.01)
FIELDS = ("estimate", "low", "high", "p_holm")


def vs_base(level: str) -> str:
    """The measure of a level's paired difference with the base: ``skill_gap_linear_vs_base``,
    …, ``skill_depth_vs_base``."""
    return f"{DEPTH}_vs_base" if level == DEPTH else f"skill_gap_{level}_vs_base"


def base_of(frame: pd.DataFrame) -> str:
    """The base rule set: the one nothing was changed from (``change`` empty), else the first."""
    plain = frame.loc[frame["change"].fillna("") == "", "rule_set"]
    return str(plain.iloc[0] if len(plain) else frame["rule_set"].iloc[0])


def levels_of(frame: pd.DataFrame) -> tuple[str, ...]:
    """The levels a verdict asks: every rung of :data:`VERDICT_RUNGS`, and the ladder-wide
    rating where the atlas has its rows (an atlas without the mixed tables has none)."""
    depth = (frame["measure"] == vs_base(DEPTH)).any()
    return (*VERDICT_RUNGS, *((DEPTH,) if depth else ()))


def verdict(differences: dict[str, tuple[float, float, float, float]]) -> str:
    """The verdict from each level's (estimate, low, high, p_holm); a level absent or NaN
    counts as no support, so it can never help a claim hold."""
    signs = [_sign(*d) for d in differences.values()]
    if not any(signs):
        return NONE
    if all(s == 1 for s in signs):
        return SKILL
    if all(s == -1 for s in signs):
        return LUCK
    return DEPENDS


def _sign(estimate: float, low: float, high: float, p_holm: float) -> int:
    """+1 or −1 where the difference is significant (Holm-adjusted p below ALPHA), else 0."""
    if not (p_holm < ALPHA) or not math.isfinite(estimate) or estimate == 0:
        return 0
    return 1 if estimate > 0 else -1


def verdicts(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per rule set but the base, in the frame's order: ``rule_set``, ``change``,
    ``verdict`` (one of :data:`VERDICTS`), each level's ``<level>_estimate``, ``_low``,
    ``_high`` and ``_p_holm`` (NaN where absent), and the ``sentence`` that says it."""
    base = base_of(frame)
    levels = levels_of(frame)
    rows: list[dict[str, Any]] = []
    by = frame.drop_duplicates(["rule_set", "measure"]).set_index(["rule_set", "measure"])
    for name, change in frame.drop_duplicates("rule_set")[["rule_set", "change"]].itertuples(
        index=False
    ):
        if name == base:
            continue
        change = "" if pd.isna(change) else str(change)
        found = {
            level: tuple(float(by.at[(name, vs_base(level)), f]) for f in FIELDS)
            if (name, vs_base(level)) in by.index
            else (math.nan,) * 4
            for level in levels
        }
        paired = any(math.isfinite(d[0]) for d in found.values())
        said = verdict(found) if paired else UNPAIRED
        row: dict[str, Any] = {"rule_set": name, "change": change, "verdict": said}
        for level, d in found.items():
            row |= {f"{level}_{f}": v for f, v in zip(FIELDS, d, strict=True)}
        row["sentence"] = sentence(name, change, said, found, base)
        rows.append(row)
    columns = ["rule_set", "change", "verdict",
               *(f"{lv}_{f}" for lv in levels for f in FIELDS), "sentence"]  # fmt: skip
    return pd.DataFrame(rows, columns=columns)


def held(table: pd.DataFrame) -> pd.DataFrame:
    """The held claims of :func:`verdicts`: more about skill first, then more about luck,
    each largest first by the top rung's difference."""
    out = table[table["verdict"].isin((SKILL, LUCK))]
    order = pd.DataFrame({"luck": out["verdict"] != SKILL,
                          "size": -out["champion_high_estimate"].abs().astype(float)})  # fmt: skip
    return out.loc[order.sort_values(["luck", "size"], kind="stable").index]


def sentence(
    name: str, change: str, said: str, found: dict[str, tuple[float, ...]], base: str
) -> str:
    """One sentence: the verdict and each level's paired difference with the base (of the
    skill gap at a rung, of the skill depth in the ladder-wide rating)."""
    what = f"{change} ({name})" if _says_more(change, name) else name
    if said == UNPAIRED:
        return f"{what} was not compared with {base} on the same deals."
    if said in (SKILL, LUCK):
        moves = "rises" if said == SKILL else "falls"
        sizes = [f"{_magnitude(*d[:3])} {LEVELS[level]}" for level, d in found.items()]
        worst = max(d[3] for d in found.values())
        return (f"{what} makes the game {said} than {base} at every level of play: the "
                f"skill gap {moves} by {', '.join(sizes)} ({_p(worst, 'each')}).")  # fmt: skip
    each = "; ".join(_level_words(level, *d) for level, d in found.items())
    if said == DEPENDS:
        return f"For {what} against {base}, it depends on the level of play: {each}."
    return f"{what}: no difference from {base} found at any level of play ({each})."


def _size(estimate: float, low: float, high: float, signed: bool = True) -> str:
    """``+0.012 [0.004, 0.020]``, as the pages write a difference (``signed``) or a size."""
    sign = "+" if signed else ""
    return f"{estimate:{sign}.{DECIMALS}f} [{low:.{DECIMALS}f}, {high:.{DECIMALS}f}]"


def _magnitude(estimate: float, low: float, high: float) -> str:
    """A difference without its sign, for "rises by" and "falls by"."""
    return _size(abs(estimate), *sorted((abs(low), abs(high))), signed=False)


def _level_words(level: str, estimate: float, low: float, high: float, p_holm: float) -> str:
    """``with champion it rises by +0.012 [0.004, 0.020] (Holm p = 0.003)``."""
    if not math.isfinite(estimate):
        return f"{LEVELS[level]} not measured"
    if _sign(estimate, low, high, p_holm) == 0:
        return f"{LEVELS[level]} no difference ({_size(estimate, low, high)}, {_p(p_holm)})"
    moves = "rises" if estimate > 0 else "falls"
    size = _magnitude(estimate, low, high)
    return f"{LEVELS[level]} it {moves} by {size} ({_p(p_holm)})"


def _p(p_holm: float, each: str = "") -> str:
    """``Holm p = 0.003``, ``Holm p < 0.001``; ``each``: of several, the largest said."""
    if math.isnan(p_holm):
        return "no Holm p"
    if each:
        return f"{each} Holm p < 0.001" if p_holm < 0.001 else f"{each} Holm p ≤ {p_holm:.3f}"
    return "Holm p < 0.001" if p_holm < 0.001 else f"Holm p = {p_holm:.3f}"


def _says_more(change: str, name: str) -> bool:
    """Whether the change in words adds to the rule set's name: one option changed, not
    already spelt out in the name (``french: OPTION=VALUE``)."""
    one = change.count(" = ") == 1 and "," not in change
    return one and change.replace(" ", "") not in name.replace(" ", "")
