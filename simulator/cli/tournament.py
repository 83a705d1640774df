"""``president tournament``: rank strategies on duplicate deals, with 95 % intervals."""

from __future__ import annotations

from pathlib import Path

import click

from simulator.cli.common import (
    UserError,
    players_option,
    resolve_rules,
    rules_option,
    seed_option,
)
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
@rules_option
@players_option
@click.option(
    "--strategies",
    "strategy_list",
    default=None,
    help="Strategies to rank, comma-separated (default: every registered one). With more "
    "than --players, every combination of them gets a table.",
)
@click.option("--matches", type=int, default=400, show_default=True,
              help="Matches per table (rounded up to whole duplicate groups).")  # fmt: skip
@click.option("--rounds-per-match", type=int, default=10, show_default=True,
              help="Rounds per match when the rules have no target.")  # fmt: skip
@click.option("--max-rounds", type=int, default=200, show_default=True,
              help="Longest match under a points target.")  # fmt: skip
@seed_option
@click.option("--workers", type=int, default=1, show_default=True, help="Threads to use.")
@click.option("--out", "out_dir", type=click.Path(path_type=Path), default=None,
              help="Folder for ranking.csv, pairwise.csv and tournament.json.")  # fmt: skip
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
) -> None:
    """Rank strategies fairly: seat rotation and duplicate deals, many matches.

    Prints the ranking (mean place, President and Scum rates, match wins, each with a 95 %
    interval taken over duplicate groups of matches) and the pairwise table of mean place
    differences; --out saves them as CSV.
    """
    rules = resolve_rules(rules_spec)
    if players is not None:
        try:
            rules = rules.with_options(players=players)
        except ValueError as exc:
            raise UserError(str(exc)) from None
    for label, value in (("--matches", matches), ("--rounds-per-match", rounds_per_match),
                         ("--max-rounds", max_rounds), ("--workers", workers)):  # fmt: skip
        if value < 1:
            raise UserError(f"{label} must be a positive integer, not {value}")
    names = strategy_list.split(",") if strategy_list else registry.names()
    config = TournamentConfig(tuple(names), matches, rounds_per_match, max_rounds, seed)
    try:
        rank, pairs = run_tournament(rules, config, workers)
    except (TournamentError, registry.StrategyError) as exc:
        raise UserError(str(exc)) from None
    click.echo(format_ranking(rank))
    click.echo()
    click.echo(format_pairwise(pairs, list(rank["strategy"])))
    if out_dir is not None:
        save(out_dir, rules, config, rank, pairs)
        click.echo(f"saved to {out_dir}/ranking.csv, pairwise.csv, tournament.json")
