"""``president report DIR``: the HTML report of a simulation run."""

from __future__ import annotations

from pathlib import Path

import click

from simulator.cli.common import UserError, complete_folders, quiet_option
from simulator.cli.progress import StepProgress, on_terminal
from simulator.runs.claims import COMPARE_FORMAT, TOURNAMENT_FORMAT, manifest_in
from simulator.runs.summary import FORMAT


def refuse_other_folders(path: Path) -> None:
    """A compare's or a tournament's folder or an unfinished run cannot be reported: say
    what can."""
    manifest = manifest_in(path) if path.is_dir() else None
    if not manifest:
        return
    if manifest.get("format") == COMPARE_FORMAT:
        variants = manifest.get("variants") or [{}]
        first = variants[0].get("name", "NAME") if isinstance(variants[0], dict) else "NAME"
        raise UserError(
            f"{path} holds a compare, not a run: its page is {path / 'compare.html'}; a "
            f"variant's report: president report {path / 'runs' / first}"
        )
    if manifest.get("format") == TOURNAMENT_FORMAT:
        raise UserError(
            f"{path} holds a tournament, not a run: its page comes from president "
            f"tournament --resume {path} --report"
        )
    if manifest.get("format") == FORMAT and manifest.get("complete") is not True:
        raise UserError(
            f"{path} holds an unfinished run: president simulate --resume {path} finishes "
            f"it, then president report {path}"
        )


def write_run_report(run_dir: str | Path, quiet: bool = False) -> Path:
    """Write DIR/report.html, a ReportError becoming a one-line UserError.

    Shared by ``president report`` and ``president simulate --report``; matplotlib and
    the report modules load only here, so that a run without a report starts fast. On a
    terminal (and not ``quiet``) the matches read so far are shown on standard error.
    """
    from reports.build import write_report
    from reports.data import ReportError

    path = Path(run_dir)
    refuse_other_folders(path)
    status = StepProgress(enabled=not quiet and on_terminal())

    def progress(done: int, total: int) -> None:
        detail = (
            f"read {done:,} of {total:,} matches"
            if done < total
            else f"read {total:,} matches; estimating, drawing the figures"
        )
        status.step(done, total, "report", detail)

    status.step(0, 1, "report", f"reading {path}")
    try:
        return write_report(path, progress)
    except ReportError as exc:
        hint = "" if manifest_in(path) else f" (a run comes from president simulate --out {path})"
        raise UserError(f"{exc}{hint}") from None
    finally:
        status.close()


@click.command("report")
@click.argument("run_dir", metavar="DIR", type=click.Path(file_okay=False),
                shell_complete=complete_folders)  # fmt: skip
@quiet_option
def report_command(run_dir: str, quiet: bool) -> None:
    """Write DIR/report.html (self-contained) and DIR/figures/ from a simulation run.

    DIR is the output of ``president simulate --out DIR``: rounds.parquet (a file or a
    folder of parts) and summary.json. Every rate comes with a 95 % interval clustered
    by match; the report's Method section says how. On a terminal, the matches read so
    far are shown on standard error.
    """
    click.echo(str(write_run_report(run_dir, quiet)))
