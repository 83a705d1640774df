"""``president report DIR``: the HTML report of a simulation run."""

from __future__ import annotations

from pathlib import Path

import click

from simulator.cli.common import UserError


def write_run_report(run_dir: str | Path) -> Path:
    """Write DIR/report.html, a ReportError becoming a one-line UserError.

    Shared by ``president report`` and ``president simulate --report``; matplotlib and
    the report modules load only here, so that a run without a report starts fast.
    """
    from reports.build import write_report
    from reports.data import ReportError

    try:
        return write_report(run_dir)
    except ReportError as exc:
        raise UserError(str(exc)) from None


@click.command("report")
@click.argument("run_dir", metavar="DIR", type=click.Path(file_okay=False))
def report_command(run_dir: str) -> None:
    """Write DIR/report.html (self-contained) and DIR/figures/ from a simulation run.

    DIR is the output of ``president simulate --out DIR``: rounds.parquet (a file or a
    folder of parts) and summary.json. Every rate comes with a 95 % interval clustered
    by match; the report's Method section says how.
    """
    click.echo(str(write_run_report(run_dir)))
