"""``summary.json``: the run's job, sizes and per-strategy table, written last.

A run folder holds ``rounds.parquet`` (the table of :mod:`simulator.runs.schema`),
``manifest.json`` (:mod:`simulator.runs.folder`) and this summary, which is everything
needed to repeat the run exactly, and its end-of-run table. :func:`summary_of` is the
one writer and :func:`read_summary` the one reader (the reports, compare).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simulator import __version__
from simulator.errors import PresidentError
from simulator.runs.job import SimConfig
from strategies.registry import get, search_played, weights_played
from strategies.specs import StrategyError

FORMAT = "president-sim/1"
ROUNDS_FILE = "rounds.parquet"
SUMMARY_FILE = "summary.json"


class SummaryError(PresidentError):
    """A ``summary.json`` that is missing, unreadable or lacks what a reader needs."""


@dataclass
class RunResult:
    """What a run produced: totals, the per-strategy table, how it was estimated, timings.

    ``computed_rounds`` and ``seconds`` count only this process's work (a resumed run's
    earlier parts are not in them) from the moment the engine was ready (the kernel's
    compile or cache load excluded), so their ratio is the speed of the computation.
    """

    matches: int
    rounds: int
    seconds: float
    table: list[dict[str, Any]]
    estimation: dict[str, Any]
    computed_rounds: int


def summary_of(config: SimConfig, result: RunResult) -> dict[str, Any]:
    """``summary.json``: everything needed to repeat the run exactly, and its results."""
    return {
        "format": FORMAT,
        "version": __version__,
        **config.to_json(),
        "players": config.rules.players,
        "matches_played": result.matches,
        "rounds_played": result.rounds,
        "batch_matches": config.batch_matches,
        "group_matches": config.group,
        **result.estimation,
        "table": result.table,
        "linear_weights": weights_played(registered(config.names), config.rules),
        "search": search_played(registered(config.names), config.rules),
    }


def registered(names: list[str]) -> list[str]:
    """The names the registry knows: a run served to UECda clients (simulator/uecda)
    names each player by the name its program gave, which plays nothing of ours."""
    known = []
    for name in names:
        try:
            get(name)
        except StrategyError:
            continue
        known.append(name)
    return known


def read_summary(path: Path) -> dict[str, Any]:
    """A run's ``summary.json``; ``rules.players`` and a positive matches count are required."""
    try:
        summary = json.loads(path.read_text())
    except FileNotFoundError:
        raise SummaryError(f"no {SUMMARY_FILE} in {path.parent}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SummaryError(f"cannot read {path}: {exc}") from None
    ok = (
        isinstance(summary, dict)
        and isinstance(summary.get("rules"), dict)
        and isinstance(summary["rules"].get("players"), int)
        and any(
            isinstance(summary.get(key), int) and summary[key] > 0
            for key in ("matches", "matches_played")
        )
    )
    if not ok:
        raise SummaryError(f"{path} lacks rules.players or a positive matches count")
    return summary
