"""``president report DIR``: the HTML report of a simulation run."""

from __future__ import annotations

import click

from simulator.cli.common import complete_folders, quiet_option
from simulator.runs.progress import step_line


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
    from reports.run_report import write_run_report  # matplotlib loads when a page is made

    with step_line(not quiet) as status:
        page = write_run_report(run_dir, status)
    click.echo(str(page))
