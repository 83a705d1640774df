"""The report of a run folder, as ``president report``, ``president simulate --report``
and the Python API's ``report`` make it: a folder that holds no finished run (a compare, a
tournament, an unfinished run) refused in one line that says what can be done; the run
read with its progress shown (:class:`simulator.runs.progress.Steps`), then its page.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from reports.build import Analysis, analyse_run, write_page
from reports.data import ReportError
from simulator.rules.files import rules_from_mapping
from simulator.rules.presets import PRESET_NAMES, preset
from simulator.runs.claims import COMPARE_FORMAT, TOURNAMENT_FORMAT, free_sibling, manifest_in
from simulator.runs.progress import Steps
from simulator.runs.summary import FORMAT

TOURNAMENT_FILE = "tournament.json"  # one of simulator.runs.tournament.tables.results


def tournament_command(settings: dict[str, Any], out: Path) -> str | None:
    """The ``president tournament`` that plays the saved tournament again into ``out``
    with its page, or None when its rules are no preset (the command line cannot name
    them)."""
    try:
        rules = rules_from_mapping(settings["rules"])
        names = ",".join(settings["strategies"])
        sizes = [settings[key] for key in ("matches", "rounds_per_match", "max_rounds", "seed")]
    except (KeyError, TypeError, ValueError):
        return None
    found = [n for n in PRESET_NAMES if preset(n).with_options(players=rules.players) == rules]
    if not found:
        return None
    matches, per_match, max_rounds, seed = sizes
    return (
        f"president tournament --rules {found[0]} --players {rules.players} --strategies "
        f"{names} --matches {matches} --rounds-per-match {per_match} --max-rounds "
        f"{max_rounds} --seed {seed} --out {out} --report"
    )


def refuse_tournament(path: Path) -> None:
    """A tournament's folder is no run: name its page, or the command that writes it."""
    if (path / "rounds.parquet").exists() or not (path / TOURNAMENT_FILE).is_file():
        return
    head = f"{path} holds a tournament, not a run: its tables are ranking.csv and pairwise.csv"
    if (path / "tournament.html").exists():
        raise ReportError(f"{head}; its page is {path / 'tournament.html'}")
    try:
        settings = json.loads((path / TOURNAMENT_FILE).read_text())
    except (OSError, ValueError):
        settings = {}
    command = tournament_command(settings, free_sibling(path)) if settings else None
    raise ReportError(
        f"{head}; its page comes from the tournament's own --report"
        + (f", e.g. (the same tournament, its page): {command}" if command else "")
    )


def refuse_other_folders(path: Path) -> None:
    """A compare's or a tournament's folder, or an unfinished run, cannot be reported:
    say what can."""
    manifest = manifest_in(path) if path.is_dir() else None
    if manifest and manifest.get("format") == TOURNAMENT_FORMAT:
        if (path / "tournament.html").exists():
            raise ReportError(f"{path} holds a tournament, not a run: its page is "
                            f"{path / 'tournament.html'}")  # fmt: skip
        state = "a tournament" if manifest.get("complete") else "an unfinished tournament"
        raise ReportError(
            f"{path} holds {state}, not a run: its page comes from president tournament "
            f"--resume {path} --report"
        )
    if path.is_dir():  # a tournament folder written before tournaments had a manifest
        refuse_tournament(path)
    if not manifest:
        return
    if manifest.get("format") == COMPARE_FORMAT:
        variants = manifest.get("variants") or [{}]
        first = variants[0].get("name", "NAME") if isinstance(variants[0], dict) else "NAME"
        raise ReportError(
            f"{path} holds a compare, not a run: its page is {path / 'compare.html'}; a "
            f"variant's report: president report {path / 'runs' / first}"
        )
    if manifest.get("format") == FORMAT and manifest.get("complete") is not True:
        raise ReportError(
            f"{path} holds an unfinished run: president simulate --resume {path} finishes "
            f"it, then president report {path}"
        )


def write_run_report(run_dir: str | Path, status: Steps) -> Path:
    """Write DIR/report.html and DIR/figures/: ``president report``, ``simulate --report``
    and the Python API's ``report``; ``status`` shows the matches read so far."""
    return write_page(analysed_run(run_dir, status))


def analysed_run(run_dir: str | Path, status: Steps) -> Analysis:
    """The run in DIR read into its report's estimates (a compare's or tournament's
    folder refused in one line, naming what can be done): what the page shows, and what
    the Python API (:mod:`simulator.api`) returns. ``status`` shows the matches read."""
    path = Path(run_dir)
    refuse_other_folders(path)

    def progress(done: int, total: int) -> None:
        detail = (
            f"read {done:,} of {total:,} matches"
            if done < total
            else f"read {total:,} matches; estimating, drawing the figures"
        )
        status.step(done, total, "report", detail)

    status.step(0, 1, "report", f"reading {path}")
    try:
        return analyse_run(path, progress)
    except ReportError as exc:
        new = free_sibling(path)
        hint = "" if manifest_in(path) else f" (a run comes from president simulate --out {new})"
        raise ReportError(f"{exc}{hint}") from None
    finally:
        status.close()
