"""``president advise``: tips a person can follow, mined from champion, each measured."""

from __future__ import annotations

from pathlib import Path

import click

from simulator.cli import common
from simulator.runs.arguments import rules_of
from simulator.runs.progress import silent, to_stderr


@click.command("advise")
@common.rules_option
@common.players_option
@click.option("--mined", type=int, default=600, show_default=True,
              help="Matches of champion's decisions to learn the tips from.")  # fmt: skip
@click.option("--matches", type=int, default=8000, show_default=True,
              help="Matches each tip is measured on (duplicate deals).")  # fmt: skip
@click.option("--champion-matches", type=int, default=1200, show_default=True,
              help="Matches champion is measured on (a search player: slower).")  # fmt: skip
@common.seed_option
@common.workers_option
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              default=Path("advice"), show_default=True, shell_complete=common.complete_folders,
              help="Folder for advice.html, tips.toml, the examples and the state kept after "
              "each step: the same command again goes on where it stopped.")  # fmt: skip
@common.quiet_option
def advise_command(rules_spec: str, players: int | None, mined: int, matches: int,
                   champion_matches: int, seed: int, workers: int, out_dir: Path,
                   quiet: bool) -> None:  # fmt: skip
    """Tips for playing under these rules, mined from champion, each measured.

    champion plays against the simple player (rules-aware); where it plays otherwise,
    small decision trees learn when, in terms a person sees at the table. Each tip is
    played by the simple player following it against the same player without it on
    duplicate deals, and shown only when it gains places with a 95 % interval that
    excludes 0 on fresh deals. Prints the tips in words; writes OUT/advice.html,
    OUT/tips.toml (usable as --strategies OUT/tips.toml) and OUT/examples/.
    """
    rules = rules_of(rules_spec, players)
    from reports.advice import advice_text, advise_and_write
    from simulator.runs.advice.run import Advice

    advice = Advice(rules, seed, mined, matches=matches, champion_matches=champion_matches,
                    workers=workers)  # fmt: skip
    table, found = advise_and_write(advice, out_dir, rules_spec, silent if quiet else to_stderr)
    click.echo(advice_text(table, found.tips_path, str(out_dir / "advice.html")), nl=False)
