"""``president tournament``: rank strategies on duplicate deals, with 95 % intervals."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from pathlib import Path

import click
import pandas as pd

from reports import text
from reports.stats import format_pm
from reports.text import PM_MEANS, Column
from simulator import notices
from simulator.cli import common
from simulator.cli.progress import StepProgress, on_terminal
from simulator.runs.folder import free_sibling
from simulator.runs.job import DEFAULT_ROUNDS_PER_MATCH, SimulationError, check_sizes
from simulator.runs.standings import stars
from simulator.runs.tournament import TournamentConfig, TournamentError, run_tournament, save
from strategies import registry

ESTIMATES = (
    ("mean_place", "mean place"),
    ("adjusted", "luck-adjusted"),
    ("president", "President"),
    ("scum", "Scum"),
    ("match_wins", "match wins"),
)


def number(value: float, digits: int = 3, sign: bool = False) -> str:
    """``value`` rounded, never a signed zero (``-0.0004`` prints as ``0.000``); NaN as n/a."""
    if math.isnan(value):
        return "n/a"
    rounded = round(value, digits) + 0.0  # -0.0 + 0.0 is +0.0
    return f"{rounded:{'+' if sign else ''}.{digits}f}"


def format_ranking(table: pd.DataFrame, clusters: int, width: int) -> str:
    """The ranking as aligned text, each estimate ± the half-width of its 95 % interval
    (``[lo, hi]`` where the interval is not symmetric, :func:`reports.stats.format_pm`),
    every line at most ``width`` columns: with many strategies or a narrow terminal the
    estimates go in blocks that each fit (:func:`reports.text.table`)."""
    rows = [r for _, r in table.iterrows()]
    names = Column("strategy", [r["strategy"] for r in rows], "<")
    columns = [Column("seat-rounds", [f"{r['rounds']:,}" for r in rows])] + [
        Column(title, [format_pm(r[key], r[f"{key}_lo"], r[f"{key}_hi"]) for r in rows])
        for key, title in ESTIMATES
    ]
    note = (
        f"{PM_MEANS}, over the {clusters} deal groups (group g has the same deals at every "
        "table, so it is one cluster across all tables), Student's t with "
        f"{clusters - 1} degrees of freedom. seat-rounds: rounds times the seats held. "
        "luck-adjusted: the mean place with the luck of the dealt hands removed (jackknife "
        "intervals); duplicate deals already give every strategy every hand, so it differs "
        "only when matches end at different rounds (a points target)."
    )
    return "\n".join(text.table(names, [[c] for c in columns], width) + text.wrap(note, width))


def format_pairwise(table: pd.DataFrame, order: Sequence[str], width: int) -> str:
    """Each pair once, the better ranked first, sorted by its mean place difference; the
    explanations wrapped to ``width`` (a pair's row is about 70 columns with built-in names).

    ``table`` may hold each pair in one orientation or both; a pair found only as
    ``(b, a)`` is turned round (the difference and its interval change sign). Stars and
    p-values are Holm-adjusted over all the pairs.
    """
    rows = {(r.a, r.b): r for r in table.itertuples()}
    pairs = []
    for a, b in itertools.combinations(order, 2):
        if (a, b) in rows:
            r = rows[(a, b)]
            diff, lo, hi = r.diff, r.diff_lo, r.diff_hi
        else:
            r = rows[(b, a)]
            diff, lo, hi = -r.diff, -r.diff_hi, -r.diff_lo
        pairs.append((diff, lo, hi, r.p_holm, a, b))
    pairs.sort(key=lambda p: (math.isnan(p[0]), p[0]))
    wa = max(len(p[4]) for p in pairs)
    wb = max(len(p[5]) for p in pairs)
    lines = text.wrap(
        "each pair once: mean place of the first minus the second where both sat at the same "
        "table (negative: the first places better), its 95 % interval and Holm-adjusted "
        "p-value",
        width,
    )
    for diff, lo, hi, p, a, b in pairs:
        p_text = "p = n/a" if math.isnan(p) else "p < 0.0001" if p < 1e-4 else f"p = {p:.4f}"
        lines.append(
            f"  {a:<{wa}} − {b:<{wb}}  {number(diff, sign=True):>6} "
            f"[{number(lo, sign=True)}, {number(hi, sign=True)}]  {p_text} {stars(p)}".rstrip()
        )
    lines += text.wrap(
        f"* p < 0.05, ** p < 0.01 after Holm's adjustment for the {len(pairs)} pairs", width
    )
    return "\n".join(lines)


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
@click.option("--out", "out_dir", type=click.Path(path_type=Path), default=None,
              shell_complete=common.complete_folders,
              help="Folder for ranking.csv, pairwise.csv, deciles.csv and tournament.json.")  # fmt: skip
@click.option("--report", "with_report", is_flag=True,
              help="Also write OUT/tournament.html, the strategy report (needs --out).")  # fmt: skip
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
    out_dir: Path | None,
    with_report: bool,
    quiet: bool,
) -> None:
    """Rank strategies fairly: seat rotation and duplicate deals, many matches.

    Prints the ranking (mean place, luck-adjusted mean place, President and Scum rates,
    match wins, each with a 95 % interval whose clusters are the deal groups, shared by
    all tables) and each pair's mean place difference once, sorted, starred after Holm's
    adjustment; --out saves them as CSV, --report writes the strategy report. On a
    terminal, the table being played and the time left are shown on standard error.
    """
    if with_report and out_dir is None:
        raise common.UserError(
            "--report needs --out DIR (the report is written to DIR/tournament.html): e.g. "
            "president tournament --out runs/tournament --report"
        )
    rules = common.resolve_rules(rules_spec)
    if players is not None:
        try:
            rules = rules.with_options(players=players)
        except ValueError as exc:
            raise common.UserError(str(exc)) from None
    try:
        check_sizes(matches, None, rounds_per_match, max_rounds)
    except SimulationError as exc:
        raise common.UserError(str(exc)) from None
    if out_dir is not None:  # before the play, not after minutes of it
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise common.UserError(
                f"--out {out_dir} is not a writable folder ({exc.strerror}; the same command "
                f"with another folder, e.g. --out {free_sibling(out_dir)})"
            ) from None
    names = [s.strip() for s in strategy_list.split(",")] if strategy_list else registry.names()
    if len(set(names)) < 2:  # the library refuses it too, without the example
        raise common.UserError(
            f"a tournament needs at least 2 different strategies, not --strategies "
            f"{strategy_list}: e.g. president tournament --strategies lowest,random"
        )
    k = rounds_per_match or DEFAULT_ROUNDS_PER_MATCH
    config = TournamentConfig(tuple(names), matches, k, max_rounds, seed)
    status = StepProgress(enabled=not quiet and on_terminal())

    def progress(done: int, total: int, lineup: tuple[str, ...]) -> None:
        status.step(done, total, f"table {done + 1}/{total}", ", ".join(lineup))

    try:
        with notices.listening(status.notice):  # a compile's notice on its own line
            standings = run_tournament(rules, config, workers, progress)
    except (TournamentError, registry.StrategyError) as exc:
        raise common.UserError(str(exc)) from None
    finally:
        status.close()
    width = common.output_width()
    click.echo(format_ranking(standings.ranking, standings.clusters, width))
    click.echo()
    click.echo(format_pairwise(standings.pairwise, list(standings.ranking["strategy"]), width))
    closing = []
    if out_dir is not None:
        save(out_dir, rules, config, standings)
        closing.append(
            f"saved to {out_dir}/ranking.csv, pairwise.csv, deciles.csv, tournament.json"
        )
    if with_report:
        from reports.strategy_page import write_tournament_page

        closing.append(f"report: {write_tournament_page(out_dir, rules, config, standings)}")
    for line in text.wrap_lines(closing, width):
        click.echo(line)
