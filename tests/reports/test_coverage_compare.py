"""Coverage of ``president compare``'s intervals: every measure and every difference.

Design (:mod:`tests.coverage`): 3000 comparisons of french against regles-jeu (4
players, lowest and random alternating), each of 60 matches of 6 rounds per variant with
its own seed, played on the kernel and reduced by the library's own
:func:`reports.compare.comparison.tally_chunk`, :func:`reports.compare.comparison.measures` and jackknife, as
``president compare`` does (60 batches of one match: t with 59 degrees of freedom). Every
printed interval — each measure of each variant, and each paired difference to french —
is checked against the truth, the same measure on all 3000 comparisons together
(1.08 M rounds per variant).

A measure that is a constant of the design (rounds per match without a target: its
interval is the exact value) is left out. With 40 matches instead of 60, the nonlinear
measures sat at 93.0–93.3 %: the jackknife's first-order accuracy needs a few dozen
clusters.

Run time: 2 × 1.08 M rounds on the kernel, tallied in chunks of runs, and one evaluation
per measure of all the runs' replicates at once: about 20 s.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from reports.compare.comparison import jackknife, measures, stacked_replicates, tally_chunk
from simulator.matchloop.api import run_matches, set_threads
from simulator.matchloop.matches import OUT_MATCH
from simulator.rules.presets import preset
from simulator.runs.job import make_config
from simulator.runs.schema import frame_from_rows
from tests.coverage import RUNS, check, coverage

LINEUP = ("lowest", "random", "lowest", "random")
MATCHES = 60
CHUNK = 250  # runs tallied at once


def variant_sums(preset_name: str) -> list[pd.DataFrame]:
    """Per run, the per-batch sums of ``tally_chunk`` (each match its own batch), tallied
    in chunks of ``CHUNK`` runs, as ``president compare`` reads a run: the arrays of a
    chunk use again the memory of the one before (all runs at once took three times as
    long, most of it the system's first touch of fresh memory)."""
    rules = preset(preset_name)
    sums = []
    for first in range(0, RUNS, CHUNK):
        parts = []
        for seed in range(first, min(RUNS, first + CHUNK)):
            config = make_config(rules, LINEUP, 5000 + seed, MATCHES, None, 6)
            rows = run_matches(config.kernel_job(), 0, MATCHES)
            rows[:, OUT_MATCH] += seed * MATCHES  # runs side by side, one match per batch
            parts.append(rows)
        frame = frame_from_rows(config, np.concatenate(parts))
        frame["batch"] = frame["match"].to_numpy()
        sums.append(tally_chunk(frame, rules.players, list(config.names)).sort_index())
    every = pd.concat(sums)
    return [every.iloc[k * MATCHES : (k + 1) * MATCHES] for k in range(RUNS)]


@pytest.mark.slow  # a coverage experiment over many simulated compares
def test_compare_intervals_cover() -> None:
    set_threads(1)
    items = measures(4, ["lowest", "random"], LINEUP)
    runs = {name: variant_sums(name) for name in ("french", "regles-jeu")}
    columns = sorted(set().union(*(set(s.columns) for r in runs.values() for s in r)))
    reps = {
        name: stacked_replicates([s.reindex(columns=columns, fill_value=0.0) for s in r], items)
        for name, r in runs.items()
    }
    truth = {
        name: stacked_replicates([pd.concat(r).reindex(columns=columns, fill_value=0.0)], items)[
            :, 0, 0
        ]
        for name, r in runs.items()
    }
    cases = {f"{name}: ": (reps[name], truth[name]) for name in runs}
    cases["regles-jeu − french: "] = (
        reps["regles-jeu"] - reps["french"],
        truth["regles-jeu"] - truth["french"],
    )
    labels, measured = [], []
    for prefix, (r, true) in cases.items():
        for k, item in enumerate(items):
            est = jackknife(r[k])  # the runs as rows: one interval per run
            if not np.isfinite(true[k]) or not est["se"].any():
                continue  # undefined under these rules, or a constant (rounds per match)
            labels.append(prefix + item.name)
            measured.append(coverage(est["lo"].to_numpy(), est["hi"].to_numpy(), true[k]))
    check(labels, np.array(measured))
