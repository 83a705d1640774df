"""``president compare``: the same strategies and deals under several rule sets, side by side."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import click

from reports.compare.comparison import read_comparison
from reports.compare.page import write_page
from reports.compare.text import terminal_table
from reports.text import wrap_lines
from simulator.cli.common import (
    UserError,
    complete_folders,
    complete_rules,
    engine_option,
    players_option,
    quiet_option,
    refuse_job_options,
    rounds_per_match_option,
    seed_option,
    strategies_option,
    workers_option,
)
from simulator.cli.simulate import exit_interrupted, terminations_interrupt
from simulator.runs.arguments import compare_variants
from simulator.runs.compare.run import measure_skill, play_variants
from simulator.runs.compare.variants import (
    check_skill,
    finish_compare,
    prepare_compare,
    reopen_compare,
)
from simulator.runs.progress import output_width, step_line, to_stderr
from strategies.specs import StrategyError

# parameters that define the compare: --resume reads them from OUT/manifest.json instead
JOB_PARAMS = (
    "rules_specs",
    "players",
    "strategy_list",
    "matches",
    "rounds",
    "rounds_per_match",
    "seed",
    "out_dir",
)


@click.command("compare")
@click.option(
    "--rules",
    "rules_specs",
    multiple=True,
    shell_complete=complete_rules,
    help="A preset name or a TOML rules file; give it once per variant (at least twice). "
    "The first is the baseline of the differences.",
)
@players_option
@strategies_option
@click.option("--matches", type=int, default=None, help="Matches per variant.")
@click.option(
    "--rounds",
    type=int,
    default=None,
    help="Rounds instead of --matches: matches = rounds / rounds-per-match, the same in "
    "every variant (default: 1,000,000 rounds).",
)
@rounds_per_match_option
@seed_option
@workers_option
@engine_option
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    shell_complete=complete_folders,
    help="Folder for compare.html, compare.json, figures/ and each variant's run in "
    "runs/NAME/ (without it: the table only). The same command again finishes an "
    "interrupted compare.",
)
@click.option(
    "--resume",
    "resume_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    shell_complete=complete_folders,
    help="Finish the interrupted compare in this folder (its variants come from its "
    "manifest), then build the comparison.",
)
@click.option(
    "--skill",
    is_flag=True,
    help="Also measure skill and luck for these rule sets (relative skill, the edges and "
    "N95, the deal's share, as president atlas does; the first rule set is the base). "
    "Costs its own games: without it compare plays only its runs.",
)
@quiet_option
def compare_command(
    rules_specs: tuple[str, ...],
    players: int | None,
    strategy_list: str | None,
    matches: int | None,
    rounds: int | None,
    rounds_per_match: int | None,
    seed: int,
    workers: int,
    engine: str,
    out_dir: Path | None,
    resume_dir: Path | None,
    skill: bool,
    quiet: bool,
) -> None:
    """Play the same strategies under several rule sets with the same deals, and compare.

    Every variant plays the same matches with the same seed, so match m starts from the
    same shuffle in every variant (common random numbers). Prints, per variant and as
    differences to the first, paired by match, with 95 % intervals: role persistence
    (P(President → President), tenure), inequality (how much the role decides the next
    place), game length and the strategies' mean places. With --out, also
    OUT/compare.html (self-contained) with figures. An interrupted compare keeps its
    finished runs: --resume OUT (or the same command again) finishes it. --skill adds the
    atlas's measures of skill and luck for the rule sets (a section of the table and the
    page), at the cost of their own games.
    """
    if resume_dir is not None:
        refuse_job_options(
            "compare", resume_dir, JOB_PARAMS, "--workers, --engine, --skill, --quiet"
        )
        variants = reopen_compare(resume_dir)
        out_dir = resume_dir
    else:
        variants = compare_variants(rules_specs, players, strategy_list, matches, rounds,
                                    rounds_per_match, seed)  # fmt: skip
    if skill:
        check_skill(variants)
    started = time.perf_counter()
    with (
        tempfile.TemporaryDirectory(prefix="president-compare-") as scratch,
        terminations_interrupt() as received,
    ):
        root = out_dir if out_dir is not None else Path(scratch)
        try:
            if resume_dir is None and prepare_compare(root, variants) and not quiet:
                click.echo(f"note: {root} holds this compare already: going on with it", err=True)
            play_variants(variants, root, workers, engine, not quiet, to_stderr)
            with step_line(not quiet) as status:
                comparison = read_comparison(root, variants, status)
            skill_frame = None
            if skill:
                with step_line(not quiet) as status:
                    skill_frame = measure_skill(variants, workers, engine, status)
        except StrategyError as exc:  # a user strategy's fault: what is finished is kept
            kept = f"; the finished runs are kept: president compare --resume {out_dir}"
            raise UserError(f"{exc}{kept if out_dir is not None else ''}") from None
        except KeyboardInterrupt:
            kept = f"the finished runs are kept: president compare --resume {out_dir}"
            exit_interrupted(received, kept if out_dir is not None else None)
        width = output_width()
        click.echo(terminal_table(comparison, width, skill_frame))
        page = None
        if out_dir is not None:
            page = write_page(comparison, out_dir, skill_frame)
            finish_compare(out_dir, variants)
    elapsed = time.perf_counter() - started
    rounds_played = sum(s["rounds_played"] for s in comparison.summaries)
    done = (
        f"{len(variants)} variants, {variants[0].config.matches:,} matches each, "
        f"{rounds_played:,} rounds in {elapsed:.1f} s" + (f"; page: {page}" if page else "")
    )
    click.echo("\n".join(wrap_lines([done], width)))
