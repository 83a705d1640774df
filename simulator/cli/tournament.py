"""``president tournament``: rank strategies on duplicate deals, with 95 % intervals."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import click

from reports.strategy.text import format_pairwise, format_ranking
from simulator.cli import common
from simulator.cli.simulate import exit_interrupted, terminations_interrupt
from simulator.runs.arguments import check_tournament_engine, tournament_job
from simulator.runs.progress import output_width, step_line
from simulator.runs.tournament.folder import TournamentFolder
from simulator.runs.tournament.run import play_tables, save_results

# parameters that define the tournament: --resume reads them from OUT/manifest.json instead
JOB_PARAMS = ("rules_spec", "players", "strategy_list", "matches", "rounds_per_match",
              "max_rounds", "seed", "out_dir")  # fmt: skip


@contextlib.contextmanager
def _stops_in_one_line(folder: TournamentFolder | None) -> Iterator[None]:
    """Ctrl-C or SIGTERM, while tables are played or results written, stops the tournament
    in one line naming the command that finishes it (the finished tables are kept)."""
    with terminations_interrupt() as received:
        try:
            yield
        except KeyboardInterrupt:
            kept = (
                folder
                and f"the finished tables are kept: president tournament --resume {folder.path}"
            )
            exit_interrupted(received, kept or None)


@click.command("tournament")
@common.rules_option
@common.players_option
@click.option(
    "--strategies",
    "strategy_list",
    default=None,
    shell_complete=common.complete_strategies,
    help="Strategies to rank, comma-separated (default: every registered one). With more "
    "than --players, every combination of them gets a table.",
)
@click.option("--matches", type=int, default=400, show_default=True,
              help="Matches per table (rounded up to whole duplicate groups).")  # fmt: skip
@common.rounds_per_match_option
@common.max_rounds_option
@common.seed_option
@common.workers_option
@common.engine_option
@click.option("--out", "out_dir", type=click.Path(path_type=Path), default=None,
              shell_complete=common.complete_folders,
              help="Folder for ranking.csv, pairwise.csv, deciles.csv and tournament.json.")  # fmt: skip
@click.option("--report", "with_report", is_flag=True,
              help="Also write OUT/tournament.html, the strategy report (needs --out).")  # fmt: skip
@click.option("--resume", "resume_dir", type=click.Path(file_okay=False, path_type=Path),
              default=None, shell_complete=common.complete_folders,
              help="Finish the interrupted tournament in this folder (its settings come "
              "from its manifest); the tables already played are not played again.")  # fmt: skip
@common.quiet_option
def tournament_command(
    rules_spec: str,
    players: int | None,
    strategy_list: str | None,
    matches: int,
    rounds_per_match: int,
    max_rounds: int,
    seed: int,
    workers: int,
    engine: str,
    out_dir: Path | None,
    with_report: bool,
    resume_dir: Path | None,
    quiet: bool,
) -> None:
    """Rank strategies fairly: seat rotation and duplicate deals, many matches.

    Prints the ranking (mean place, luck-adjusted mean place when duplicate deals leave
    luck to adjust for, President and Scum rates, match wins, each with a 95 % interval
    whose clusters are the deal groups, shared by all tables) and each pair's mean place
    difference once, sorted, starred after Holm's
    adjustment; --out saves them as CSV, --report writes the strategy report. On a
    terminal, the table being played and the time left are shown on standard error. A
    tournament stopped by Ctrl-C, SIGTERM or a crash keeps its finished tables:
    --resume OUT finishes it.
    """
    if resume_dir is not None:
        common.refuse_job_options("tournament", resume_dir, JOB_PARAMS,
                                  "--workers, --engine, --report, --quiet")  # fmt: skip
        out_dir = resume_dir
    if with_report and out_dir is None:
        raise common.UserError(
            "--report needs --out DIR (the report is written to DIR/tournament.html): e.g. "
            "president tournament --out runs/tournament --report"
        )
    check_tournament_engine(engine)
    if resume_dir is not None:
        folder = TournamentFolder.reopen(resume_dir, with_report)
        rules, config = folder.rules, folder.config
    else:
        rules, config = tournament_job(rules_spec, players, strategy_list, matches,
                                       rounds_per_match, max_rounds, seed)  # fmt: skip
        folder = None if out_dir is None else TournamentFolder.create(
            out_dir, rules, config, with_report
        )  # fmt: skip
    for note in folder.dropped if folder else ():
        click.echo(f"note: {note}: the table is played again", err=True)
    with _stops_in_one_line(folder), step_line(not quiet) as status:
        standings = play_tables(rules, config, workers, folder, engine, status)
    width = output_width()
    click.echo(format_ranking(standings.ranking, standings.clusters, width,
                              standings.luck_balanced))  # fmt: skip
    click.echo()
    click.echo(format_pairwise(standings.pairwise, list(standings.ranking["strategy"]), width))
    if folder is not None:
        from reports.strategy.page import write_tournament_page  # matplotlib: for the page

        with _stops_in_one_line(folder):
            save_results(folder, standings, write_tournament_page, common.say)
