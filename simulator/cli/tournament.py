"""``president tournament``: rank strategies on duplicate deals, with 95 % intervals."""

from __future__ import annotations

import contextlib
import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import click
import pandas as pd

from reports import numbers, text
from reports.text import PM_MEANS, Column
from simulator import notices
from simulator.cli import common
from simulator.cli.progress import StepProgress, on_terminal
from simulator.cli.simulate import exit_interrupted, terminations_interrupt
from simulator.rules.options import Rules
from simulator.runs.arguments import check_tournament_engine, tournament_job
from simulator.runs.standings import Standings, stars
from simulator.runs.tournament import TournamentConfig, results, run_tournament
from simulator.runs.tournament_folder import TournamentFolder

# parameters that define the tournament: --resume reads them from OUT/manifest.json instead
JOB_PARAMS = ("rules_spec", "players", "strategy_list", "matches", "rounds_per_match",
              "max_rounds", "seed", "out_dir")  # fmt: skip

ESTIMATES = (
    ("mean_place", "mean place"),
    ("adjusted", "luck-adjusted"),
    ("president", "President"),
    ("scum", "Scum"),
    ("match_wins", "match wins"),
)


def number(value: float, digits: int = 3, sign: bool = False) -> str:
    """``value`` to ``digits`` places, never a signed zero (``-0.0004`` prints as ``0.000``);
    NaN as n/a."""
    return "n/a" if math.isnan(value) else numbers.fixed(value, digits, sign)


def format_ranking(
    table: pd.DataFrame, clusters: int, width: int, luck_balanced: bool = False
) -> str:
    """The ranking as aligned text, each estimate ± the half-width of its 95 % interval
    (``[lo, hi]`` where the interval is not symmetric: :func:`reports.numbers.plus_minus`),
    each column to the digits its intervals need, every line at most ``width`` columns:
    with many strategies or a narrow terminal the estimates go in blocks that each fit
    (:func:`reports.text.table`). ``luck_balanced``: duplicate deals balanced the luck of
    the deal, so the luck-adjusted column would copy the plain one: it is left out, and
    the note says why once.
    """
    shown = [(k, t) for k, t in ESTIMATES if not (luck_balanced and k == "adjusted")]
    rows = [r for _, r in table.iterrows()]
    names = Column("strategy", [r["strategy"] for r in rows], "<")
    columns = [Column("seat-rounds", [f"{r['rounds']:,}" for r in rows])] + [
        Column(title, numbers.format_column(table[key], table[f"{key}_lo"],
                                            table[f"{key}_hi"], style="plus_minus"))
        for key, title in shown
    ]  # fmt: skip
    luck = (
        "Duplicate deals already balance the luck of the deal (every strategy gets every "
        "dealt hand equally often), so the luck-adjusted mean place equals the plain one "
        "and is not shown."
        if luck_balanced
        else "luck-adjusted: the mean place with the luck of the dealt hands removed "
        "(jackknife intervals); it differs from the plain one because matches end at "
        "different rounds (a points target), so duplicate deals balance the hands only in part."
    )
    note = (
        f"{PM_MEANS}, over the {clusters} deal groups (group g has the same deals at every "
        "table, so it is one cluster across all tables), Student's t with "
        f"{clusters - 1} degrees of freedom; rates have score intervals (Wilson's, with fewer "
        "degrees of freedom when a few groups hold the events). "
        f"seat-rounds: rounds times the seats held. {luck}"
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
    places = numbers.shared((diff, lo, hi) for diff, lo, hi, *_ in pairs)
    for diff, lo, hi, p, a, b in pairs:
        p_text = "p = n/a" if math.isnan(p) else "p < 0.0001" if p < 1e-4 else f"p = {p:.4f}"
        lines.append(
            f"  {a:<{wa}} − {b:<{wb}}  {number(diff, places, sign=True):>{places + 3}} "
            f"[{number(lo, places, sign=True)}, {number(hi, places, sign=True)}]  "
            f"{p_text} {stars(p)}".rstrip()
        )
    lines += text.wrap(
        f"* p < 0.05, ** p < 0.01 after Holm's adjustment for the {len(pairs)} pairs", width
    )
    return "\n".join(lines)


def play_tables(
    rules: Rules,
    config: TournamentConfig,
    workers: int,
    folder: TournamentFolder | None,
    quiet: bool,
    engine: str,
) -> Standings:
    """Play the tables (those not in ``folder`` yet), the table being played on a terminal."""
    status = StepProgress(enabled=not quiet and on_terminal())

    def progress(done: int, total: int, lineup: tuple[str, ...]) -> None:
        status.step(done, total, f"table {done + 1}/{total}", ", ".join(lineup))

    try:
        with notices.listening(status.notice):  # a compile's notice on its own line
            return run_tournament(rules, config, workers, progress, folder, engine)
    finally:
        status.close()


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


def _say(line: str) -> None:
    """A closing line, wrapped to the terminal's width."""
    for part in text.wrap_lines([line], common.output_width()):
        click.echo(part)


def save_results(
    folder: TournamentFolder, standings: Standings, say: Callable[[str], None] = _say
) -> None:
    """Write the result files (and the page), then mark the tournament complete; ``say``
    tells what was written (the Python API passes a function that says nothing)."""
    out = folder.path
    try:
        for name, content in results(folder.rules, folder.config, standings).items():
            folder.write(name, content)
        say(f"saved to {out}/ranking.csv, pairwise.csv, deciles.csv, tournament.json")
        if folder.report:
            from reports.strategy_page import write_tournament_page

            page = write_tournament_page(out, folder.rules, folder.config, standings)
            say(f"report: {page}")
        folder.finish()
    except OSError as exc:
        raise common.UserError(
            f"cannot write to {out}: {exc.strerror or exc} (the tables are kept: free the "
            f"problem, then president tournament --resume {out})"
        ) from None
    if folder.was_complete:
        say(f"the tournament in {out} was already complete: no table was played again")


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
    with _stops_in_one_line(folder):
        standings = play_tables(rules, config, workers, folder, quiet, engine)
    width = common.output_width()
    click.echo(format_ranking(standings.ranking, standings.clusters, width,
                              standings.luck_balanced))  # fmt: skip
    click.echo()
    click.echo(format_pairwise(standings.pairwise, list(standings.ranking["strategy"]), width))
    if folder is not None:
        with _stops_in_one_line(folder):
            save_results(folder, standings)
