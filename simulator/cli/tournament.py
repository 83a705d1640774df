"""``president tournament``: rank strategies on duplicate deals, with 95 % intervals."""

from __future__ import annotations

from pathlib import Path

import click

from simulator.cli import common
from simulator.runs.job import DEFAULT_ROUNDS_PER_MATCH, SimulationError, check_sizes
from simulator.runs.tournament import (
    TournamentConfig,
    TournamentError,
    format_pairwise,
    format_ranking,
    run_tournament,
    save,
)
from strategies import registry


@click.command("tournament")
@common.rules_option
@common.players_option
@click.option(
    "--strategies",
    "strategy_list",
    default=None,
    help="Strategies to rank, comma-separated (default: every registered one). With more "
    "than --players, every combination of them gets a table.",
)
@click.option("--matches", type=int, default=400, show_default=True,
              help="Matches per table (rounded up to whole duplicate groups).")  # fmt: skip
@common.rounds_per_match_option
@common.max_rounds_option
@common.seed_option
@click.option("--workers", type=int, default=1, show_default=True, help="Threads to use.")
@click.option("--out", "out_dir", type=click.Path(path_type=Path), default=None,
              help="Folder for ranking.csv, pairwise.csv, deciles.csv and tournament.json.")  # fmt: skip
@click.option("--report", "with_report", is_flag=True,
              help="Also write OUT/tournament.html, the strategy report (needs --out).")  # fmt: skip
def tournament_command(
    rules_spec: str,
    players: int | None,
    strategy_list: str | None,
    matches: int,
    rounds_per_match: int,
    max_rounds: int,
    seed: int,
    workers: int,
    out_dir: Path | None,
    with_report: bool,
) -> None:
    """Rank strategies fairly: seat rotation and duplicate deals, many matches.

    Prints the ranking (mean place, luck-adjusted mean place, President and Scum rates,
    match wins, each with a 95 % interval whose clusters are the deal groups, shared by
    all tables) and each pair's mean place difference once, starred after Holm's
    adjustment; --out saves them as CSV, --report writes the strategy report.
    """
    if with_report and out_dir is None:
        raise common.UserError(
            "--report needs --out DIR (the report is written to DIR/tournament.html)"
        )
    rules = common.resolve_rules(rules_spec)
    if players is not None:
        try:
            rules = rules.with_options(players=players)
        except ValueError as exc:
            raise common.UserError(str(exc)) from None
    if workers < 1:
        raise common.UserError(f"--workers must be a positive integer, not {workers}")
    try:
        check_sizes(matches, None, rounds_per_match, max_rounds)
    except SimulationError as exc:
        raise common.UserError(str(exc)) from None
    names = strategy_list.split(",") if strategy_list else registry.names()
    k = rounds_per_match or DEFAULT_ROUNDS_PER_MATCH
    config = TournamentConfig(tuple(names), matches, k, max_rounds, seed)
    try:
        standings = run_tournament(rules, config, workers)
    except (TournamentError, registry.StrategyError) as exc:
        raise common.UserError(str(exc)) from None
    click.echo(format_ranking(standings.ranking, standings.clusters))
    click.echo()
    click.echo(format_pairwise(standings.pairwise, list(standings.ranking["strategy"])))
    if out_dir is not None:
        save(out_dir, rules, config, standings)
        click.echo(f"saved to {out_dir}/ranking.csv, pairwise.csv, deciles.csv, tournament.json")
    if with_report:
        from reports.strategy_page import write_tournament_page

        click.echo(f"report: {write_tournament_page(out_dir, rules, config, standings)}")
