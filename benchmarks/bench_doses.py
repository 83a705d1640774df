"""The dose table: every measure of the atlas under known doses of luck and of skill,
predicted against measured: ``python benchmarks/bench_doses.py [--rounds R] [--batches B]``.

Plays the atlas of ``french`` (the base) and ``examples/rules/daifugo-without-suits.toml`` at a fixed
size (``B`` batches of every part, ``R`` rounds a table: no precision target) once
undosed, then with each dose of luck p (``--luck-doses``, 0.25 and 0.5) and each dose of
skill q (``--skill-doses``, the same), all on the same deals
(:mod:`simulator.runs.atlas.doses`). For each measure that
:data:`simulator.runs.skill.doses.PREDICTIONS` holds, it prints under p the value its
rule predicts from the undosed one, the measured value with its 95 % interval and PASS
or MISS (within the two runs' half-widths added in quadrature:
:func:`~simulator.runs.skill.doses.luck_verdict`); under q the predicted direction, the
estimates at q = 0 and each dose, and PASS or MISS. A new measure is one more line of
``PREDICTIONS``; docs/skill.md derives each rule and holds the table, measured.
"""

from __future__ import annotations

import argparse
import math
import time
from dataclasses import replace

import pandas as pd

from simulator.runs.atlas.batches import Atlas, BatchStore, play_locally
from simulator.runs.atlas.play import MATCH, PAIRS, AtlasSettings
from simulator.runs.atlas.rows import atlas_frame, joined
from simulator.runs.atlas.sets import named_rule_sets
from simulator.runs.skill.doses import (
    FALLS,
    RISES,
    Spread,
    luck_verdict,
    moves_as_predicted,
    prediction_for,
    spread_of,
)
from simulator.runs.skill.measure import Measure

RULE_SETS = ("french", "examples/rules/daifugo-without-suits.toml")
WORDS = {RISES: "rises", FALLS: "falls", 0: "unchanged"}


def played(settings: AtlasSettings) -> tuple[pd.DataFrame, dict[str, dict[str, Spread]]]:
    """The atlas's rows under ``settings``, and each rule set's pairs' spreads (N95's
    prediction reads the undosed ones)."""
    atlas = Atlas(named_rule_sets(list(RULE_SETS), RULE_SETS[0]), settings, BatchStore(),
                  play_locally)  # fmt: skip
    atlas.run()
    spreads = {
        name: {pair: spread_of(*(joined(p.parts[MATCH], f"{MATCH}:{pair}:{k}")
                                 for k in ("diff", "rounds", "round_diff"))) for pair in PAIRS}
        for name, p in atlas.played.items()
    }  # fmt: skip
    return atlas_frame(list(atlas.played.values()), atlas.base, settings), spreads


def measures(frame: pd.DataFrame) -> dict[tuple[str, str], tuple[Measure, int]]:
    """Each (rule set, measure)'s :class:`Measure` and its table's players."""
    return {(r.rule_set, r.measure): (Measure(r.estimate, r.low, r.high), int(r.players))
            for r in frame.itertuples()}  # fmt: skip


def show(m: Measure) -> str:
    return f"{m.estimate:+.4f} [{m.low:+.4f}, {m.high:+.4f}]"


Runs = dict[tuple[str, float], dict[tuple[str, str], tuple[Measure, int]]]


def luck_table(runs: Runs, spreads: dict[str, dict[str, Spread]], doses: list[float]) -> int:
    """Print the dose of luck's rows; the misses (MISS at 95 %; MISS* within the
    tolerance of the whole table's checks, whose false misses together have a 5 % chance)."""
    undosed = runs[("none", 0.0)]
    checks = [(key, pred, p) for key in undosed if (pred := prediction_for(key[1])) is not None
              and pred.luck is not None for p in doses]  # fmt: skip
    print("\n## Dose of luck p: predicted from the undosed value, measured [95 %]")
    print("| rule set | measure | rule | undosed | p | predicted | measured | |")
    print("|---|---|---|---|---|---|---|---|")
    missed = 0
    for (rule_set, name), pred, p in checks:
        m0, players = undosed[(rule_set, name)]
        m = runs[("luck", p)][(rule_set, name)][0]
        spread = spreads[rule_set].get(name.removeprefix("n95_"))
        value, ok = luck_verdict(pred, m0, m, p, players, spread)
        family = ok or luck_verdict(pred, m0, m, p, players, spread, len(checks))[1]
        missed += not ok
        text = "—" if math.isnan(value) else f"{value:+.4f}"
        mark = "PASS" if ok else "MISS*" if family else "MISS"
        print(f"| {rule_set} | {name} | {pred.words} | {m0.estimate:+.4f} | {p:g} | {text} "
              f"| {show(m)} | {mark} |")  # fmt: skip
    print(f"\n{len(checks) - missed} of {len(checks)} PASS (MISS*: within the tolerance of "
          f"{len(checks)} checks together)")  # fmt: skip
    return missed


def skill_table(runs: Runs, doses: list[float]) -> int:
    """Print the dose of skill's rows (an N95 whose pair's edge changed sign says so: the
    better player is then the other one); the misses."""
    undosed = runs[("none", 0.0)]
    print("\n## Dose of skill q (the top): predicted direction, estimates at q = 0, "
          + ", ".join(f"{q:g}" for q in doses))  # fmt: skip
    print("| rule set | measure | predicted | estimates | |")
    print("|---|---|---|---|---|")
    missed = checks = 0
    for (rule_set, name), (m0, _) in undosed.items():
        pred = prediction_for(name)
        if pred is None or pred.skill is None:
            continue
        series = [m0, *(runs[("skill", q)][(rule_set, name)][0] for q in doses)]
        ok = moves_as_predicted(series, pred.skill)
        checks, missed = checks + 1, missed + (not ok)
        values = " → ".join(f"{m.estimate:+.4f}" for m in series)
        edge = (rule_set, name.replace("n95_", "edge_", 1))
        signs = {math.copysign(1, runs[k][edge][0].estimate) for k in runs if k[0] != "luck"}
        note = " (the edge changed sign)" if name.startswith("n95_") and len(signs) > 1 else ""
        print(f"| {rule_set} | {name} | {WORDS[pred.skill]} | {values} "
              f"| {'PASS' if ok else 'MISS'}{note} |")  # fmt: skip
    print(f"\n{checks - missed} of {checks} PASS")
    return missed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000, help="rounds a table per batch")
    parser.add_argument("--batches", type=int, default=4, help="batches of every part")
    parser.add_argument("--luck-doses", default="0.25,0.5", help="the doses of luck p")
    parser.add_argument("--skill-doses", default="0.25,0.5", help="the doses of skill q")
    parser.add_argument("--seed", type=int, default=0, help="the atlas's seed")
    args = parser.parse_args()
    b = args.batches
    luck, skill = ([float(v) for v in text.split(",")] for text in (args.luck_doses,
                                                                     args.skill_doses))  # fmt: skip
    settings = AtlasSettings(batch_rounds=args.rounds, min_batches=b, max_batches=b,
                             max_edge_batches=b, match_batches=b, seed=args.seed)  # fmt: skip
    runs: Runs = {}
    spreads: dict[str, dict[str, Spread]] = {}
    started = time.perf_counter()
    for what, dose in [("none", 0.0), *[("luck", p) for p in luck], *[("skill", q) for q in skill]]:
        start = time.perf_counter()
        changes = {"luck_dose": dose} if what == "luck" else {"skill_dose": dose}
        frame, spread = played(replace(settings, **changes))
        runs[(what, dose)] = measures(frame)
        spreads = spreads or spread  # the undosed run's, first: N95's predictions read them
        print(f"# played: dose of {what} {dose:g} in {time.perf_counter() - start:.0f} s",
              flush=True)  # fmt: skip
    missed = luck_table(runs, spreads, luck) + skill_table(runs, skill)
    print(
        f"\n{missed} MISS in all; {time.perf_counter() - started:.0f} s "
        f"({args.rounds} rounds a table, {b} batches of each part)"
    )


if __name__ == "__main__":
    main()
