"""The dose table: every measure of the atlas under known doses of luck and of skill,
predicted against measured: ``python benchmarks/bench_doses.py [--rounds R] [--batches B]``.

Plays the atlas of ``french`` (the base) and ``examples/rules/daifugo.toml`` at a fixed
size (``B`` batches of every part, ``R`` rounds a table: no precision target) once
undosed, then with a dose of luck p and a dose of skill q at each of :data:`DOSES`
(:mod:`simulator.runs.atlas.doses`; every run on the same deals). For each measure that
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

RULE_SETS = ("french", "examples/rules/daifugo.toml")
DOSES = (0.25, 0.5)
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000, help="rounds a table per batch")
    parser.add_argument("--batches", type=int, default=4, help="batches of every part")
    args = parser.parse_args()
    b = args.batches
    settings = AtlasSettings(batch_rounds=args.rounds, min_batches=b, max_batches=b,
                             max_edge_batches=b, match_batches=b)  # fmt: skip
    runs: dict[tuple[str, float], dict[tuple[str, str], tuple[Measure, int]]] = {}
    started = time.perf_counter()
    for what, dose in [("none", 0.0), *[(k, d) for k in ("luck", "skill") for d in DOSES]]:
        start = time.perf_counter()
        changes = {"luck_dose": dose} if what == "luck" else {"skill_dose": dose}
        frame, spreads = played(replace(settings, **changes) if dose else settings)
        runs[(what, dose)] = measures(frame)
        if not dose:
            spreads_undosed = spreads  # N95's predictions read the undosed spreads
        print(f"# played: dose of {what} {dose:g} in {time.perf_counter() - start:.0f} s",
              flush=True)  # fmt: skip
    undosed = runs[("none", 0.0)]
    passed = missed = 0
    print("\n## Dose of luck p: predicted from the undosed value, measured [95 %]")
    print("| rule set | measure | rule | undosed | p | predicted | measured | |")
    print("|---|---|---|---|---|---|---|---|")
    for (rule_set, name), (m0, players) in undosed.items():
        pred = prediction_for(name)
        if pred is None or pred.luck is None:
            continue
        pair = name.removeprefix("n95_")
        spread = spreads_undosed[rule_set].get(pair)
        for p in DOSES:
            m = runs[("luck", p)][(rule_set, name)][0]
            value, ok = luck_verdict(pred, m0, m, p, players, spread)
            passed, missed = passed + ok, missed + (not ok)
            text = "—" if math.isnan(value) else f"{value:+.4f}"
            print(f"| {rule_set} | {name} | {pred.words} | {m0.estimate:+.4f} | {p:g} | {text} "
                  f"| {show(m)} | {'PASS' if ok else 'MISS'} |")  # fmt: skip
    print(
        "\n## Dose of skill q (the top): predicted direction, estimates at q = 0, "
        + ", ".join(f"{q:g}" for q in DOSES)
    )
    print("| rule set | measure | predicted | estimates | |")
    print("|---|---|---|---|---|")
    for (rule_set, name), (m0, _) in undosed.items():
        pred = prediction_for(name)
        if pred is None or pred.skill is None:
            continue
        series = [m0, *(runs[("skill", q)][(rule_set, name)][0] for q in DOSES)]
        ok = moves_as_predicted(series, pred.skill)
        passed, missed = passed + ok, missed + (not ok)
        values = " → ".join(f"{m.estimate:+.4f}" for m in series)
        print(f"| {rule_set} | {name} | {WORDS[pred.skill]} | {values} "
              f"| {'PASS' if ok else 'MISS'} |")  # fmt: skip
    print(
        f"\n{passed} PASS, {missed} MISS; {time.perf_counter() - started:.0f} s in all "
        f"({args.rounds} rounds a table, {b} batches of each part)"
    )


if __name__ == "__main__":
    main()
