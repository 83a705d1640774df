"""A compare's runs, as ``president compare`` and the Python API's ``compare`` play them:
each variant's run in turn (played, resumed or found complete) with its bar of rounds,
and ``--skill``'s measures with the rule set under way. Reading the runs into the
comparison and its page are the reports' (:func:`reports.compare.comparison.read_comparison`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from simulator.runs.atlas.run import player
from simulator.runs.compare.variants import Variant, play_variant, variant_skill
from simulator.runs.engines import KERNEL_ENGINES
from simulator.runs.progress import Say, Steps, rounds_bar


def play_variants(
    variants: Sequence[Variant], root: Path, workers: int, engine: str, show: bool, say: Say
) -> None:
    """Every variant's run in ``root/runs/NAME``, one after the other, each with its bar
    on a terminal when ``show``; ``say`` gets a note for the parts computed again. A
    strategy's fault names the variant, and keeps the finished runs and parts."""
    for index, variant in enumerate(variants):
        label = f"variant {index + 1}/{len(variants)} {variant.name}"
        with rounds_bar(show, label) as bar:
            _, dropped = play_variant(variant, root, workers, bar, engine)
        for note in dropped:
            say(f"note: variant {variant.name}: {note} are computed again")


def measure_skill(
    variants: Sequence[Variant], workers: int, engine: str, status: Steps
) -> pd.DataFrame:
    """``--skill``: the atlas's measures for the compared rule sets, the rule set under
    way told to ``status``, played as ``president atlas`` plays them (``--engine python``
    has no atlas: its games are the kernel's, which gives the same numbers)."""

    def progress(done: int, total: int, what: str) -> None:
        status.step(done, total, "skill", what)

    with player(engine if engine in KERNEL_ENGINES else "numba", workers) as play:
        return variant_skill(variants, progress, play)
