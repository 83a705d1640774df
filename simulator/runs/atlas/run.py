"""An atlas from its arguments to its page, as ``president atlas`` and the Python API's
``atlas`` run it: the folder made (or reopened), the rule sets played where the engine
says, their progress told to a :class:`~simulator.runs.progress.Steps`, the page written
by the caller's ``write_page`` (the pages are a layer above), then the folder marked
complete.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pandas as pd

from simulator import notices
from simulator.runs.atlas.batches import AtlasSettings, Play, play_locally, skill_rows
from simulator.runs.atlas.folder import AtlasFolder
from simulator.runs.atlas.sets import AtlasError, default_rule_sets, named_rule_sets
from simulator.runs.engines import engine_context
from simulator.runs.progress import Steps

DEFAULTS = AtlasSettings()
PAGE = "atlas.html"
AtlasPage = Callable[[pd.DataFrame, Path], None]  # the rows, the page's path


def create_atlas(
    out: Path,
    rules_specs: Sequence[str],
    base: str,
    field: str,
    batch_rounds: int,
    min_batches: int,
    max_batches: int,
    max_edge_batches: int,
    match_batches: int,
    seed: int,
    *,
    budget_scale: float = DEFAULTS.budget_scale,
    every: bool = False,
    luck_dose: float = 0.0,
    skill_dose: float = 0.0,
    mix_batches: int = DEFAULTS.mix_batches,
) -> AtlasFolder:
    """A new atlas in ``out``: the rule sets named (presets or rules files; none: the
    default atlas around ``base``, ``every``: the full one), the settings checked before
    anything is played; the
    doses (:mod:`simulator.runs.atlas.doses`) only when asked for."""
    specs = list(rules_specs)
    if specs and every:
        raise AtlasError("--all and --rules exclude each other (allowed: one of them)")
    rule_sets = named_rule_sets(specs, base) if specs else default_rule_sets(base, every)
    settings = replace(DEFAULTS, field=field, seed=seed, batch_rounds=batch_rounds,
                       min_batches=min_batches, max_batches=max_batches,
                       max_edge_batches=max_edge_batches, match_batches=match_batches,
                       budget_scale=budget_scale, luck_dose=luck_dose, skill_dose=skill_dose,
                       mix_batches=mix_batches)  # fmt: skip
    settings.check()
    return AtlasFolder.create(out, rule_sets, settings)


def _dask_play(workers: int) -> Any:
    """A local Dask cluster's way of playing a batch's tables (imported only for dask)."""
    from simulator.runs.atlas.play import dask_play

    return dask_play(workers)


def player(engine: str, workers: int) -> contextlib.AbstractContextManager[Play]:
    """How a batch's tables are played: here in threads, or on a local Dask cluster."""
    return engine_context(engine, workers, play_locally, _dask_play)


def run_folder(
    folder: AtlasFolder, engine: str, workers: int, status: Steps, write_page: AtlasPage
) -> Path:
    """Play what the folder lacks, each rule set under way told to ``status``; write the
    page (``write_page``) and atlas.parquet (last: it marks the atlas complete); the
    page's path."""

    def progress(done: int, total: int, what: str) -> None:
        status.step(done, total, what)

    with notices.listening(status.notice), player(engine, workers) as play:
        frame = skill_rows(folder.rule_sets, folder.settings, progress, folder, play)
    page = folder.path / PAGE
    write_page(frame, page)
    folder.finish(frame)
    return page
