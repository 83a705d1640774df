"""``president atlas``: what each house rule does to skill and luck, rule set by rule set."""

from __future__ import annotations

from pathlib import Path

import click

from reports import text
from simulator.cli import common
from simulator.cli.simulate import exit_interrupted, terminations_interrupt
from simulator.runs.atlas.batches import estimate_minutes
from simulator.runs.atlas.folder import PARQUET, AtlasFolder
from simulator.runs.atlas.run import DEFAULTS, create_atlas, run_folder
from simulator.runs.engines import KERNEL_ENGINES
from simulator.runs.progress import output_width, step_line

# options that define the atlas: --resume reads them from DIR/manifest.json instead
JOB_PARAMS = ("rules_specs", "base", "every", "field", "rounds", "min_batches", "max_batches",
              "max_edge_batches", "match_batches", "mix_batches", "budget_scale", "seed", "luck_dose",
              "skill_dose", "out_dir")  # fmt: skip


@click.command("atlas")
@click.option("--rules", "rules_specs", multiple=True, metavar="NAME|FILE",
              shell_complete=common.complete_rules,
              help="A rule set to measure, a preset or a rules file; repeat it for more (the "
              "first is the base the others are paired with; default: the default atlas "
              "around --base).")  # fmt: skip
@click.option("--base", default="french", show_default=True,
              help="The preset of the default atlas: the presets, this preset with the "
              "options players argue about most changed alone (revolution, jack-back, 8s, "
              "2s, no exchange, daifugo-without-suits.toml; around uecda also the lock and "
              "sequences), this preset at 3, 5 and 6 players.")  # fmt: skip
@click.option("--all", "every", is_flag=True,
              help="The full atlas instead: this preset with every option changed alone "
              "and every table of examples/rules/ too (its time is printed first).")  # fmt: skip
@click.option("--field", default=DEFAULTS.field, show_default=True,
              shell_complete=common.complete_strategies,
              help="The strategy of every seat but the tested ones (linear uses the weights "
              "tuned for the rules).")  # fmt: skip
@click.option("--rounds", type=int, default=DEFAULTS.batch_rounds, show_default=True,
              help="Rounds of each table per batch (whole duplicate groups).")  # fmt: skip
@click.option("--min-batches", type=int, default=DEFAULTS.min_batches, show_default=True,
              help="Batches every rule set plays before its precision is checked.")  # fmt: skip
@click.option("--max-batches", type=int, default=DEFAULTS.max_batches, show_default=True,
              help="The duels' cap (RS): a rule set whose duels reach it short of the "
              "precision targets has its RS rows flagged capped.")  # fmt: skip
@click.option("--max-edge-batches", type=int, default=DEFAULTS.max_edge_batches,
              show_default=True, help="The edges' cap (the pairs on duplicate deals: Δ and "
              "N95): reached short of the Δ targets, those rows are flagged capped.")  # fmt: skip
@click.option("--match-batches", type=int, default=DEFAULTS.match_batches, show_default=True,
              help="Batches of ordinary matches each rule set plays (σ of N95, the deal's "
              "share, persistence, the exchange; no precision target).")  # fmt: skip
@click.option("--mix-batches", type=int, default=DEFAULTS.mix_batches, show_default=True,
              help="Batches of the tables that mix the ladder's rungs each rule set plays "
              "(the rating, the skill depth, the neighbours' edges; no precision target).")  # fmt: skip
@click.option("--budget-scale", type=float, default=DEFAULTS.budget_scale, show_default=True,
              help="Multiplies every search rung's budget, guesses and solve (2: the whole "
              "ladder re-run with every search doubled, to check that the verdicts hold).")  # fmt: skip
@click.option("--luck-dose", type=float, default=DEFAULTS.luck_dose, show_default=True,
              metavar="P", help="A measurement instrument, not a rule: each round's places are "
              "replaced by a random order with probability P (0 ≤ P < 1), to check that the "
              "measures move as docs/skill.md predicts.")  # fmt: skip
@click.option("--skill-dose", type=float, default=DEFAULTS.skill_dose, show_default=True,
              metavar="Q", help="A measurement instrument, not a rule: the top rung (champion_high) plays "
              "a random legal move with probability Q (0 ≤ Q < 1) at each decision, to check "
              "that the measures move as docs/skill.md predicts.")  # fmt: skip
@common.seed_option
@common.workers_option
@click.option("--engine", type=click.Choice(KERNEL_ENGINES), default="numba", show_default=True,
              help="numba: the kernel in --workers threads; dask: a batch's tables side by "
              "side on a local Dask cluster of --workers (the same numbers).")  # fmt: skip
@click.option("--out", "out_dir", type=click.Path(path_type=Path), default=None,
              shell_complete=common.complete_folders,
              help="Folder for atlas.parquet and the batches kept as they are played "
              "(absent or empty).")  # fmt: skip
@click.option("--resume", "resume_dir", type=click.Path(file_okay=False, path_type=Path),
              default=None, shell_complete=common.complete_folders,
              help="Go on with the atlas in this folder (its settings come from its "
              "manifest; no batch kept there is played again).")  # fmt: skip
@common.quiet_option
def atlas_command(
    rules_specs: tuple[str, ...],
    base: str,
    every: bool,
    field: str,
    rounds: int,
    min_batches: int,
    max_batches: int,
    max_edge_batches: int,
    match_batches: int,
    mix_batches: int,
    budget_scale: float,
    luck_dose: float,
    skill_dose: float,
    seed: int,
    workers: int,
    engine: str,
    out_dir: Path | None,
    resume_dir: Path | None,
    quiet: bool,
) -> None:
    """Measure skill and luck under each rule set: relative skill, edges, the deal's share.

    For each rule set, along a ladder of players from random to champion at three search
    levels: each rung's mean place and skill gap over random, relative skill at each
    level, the edges of two pairs and the rounds until they show, the deal's share
    before and after the exchange, persistence and the exchange's effect, each with its
    95 % interval (docs/skill.md).
    Each rule set plays batches of duplicate deals (the same deals for every test strategy
    and every rule set) until the precision targets are met or a cap is reached;
    every batch is kept in OUT as it is played, so --resume OUT goes on after any stop.
    """
    if resume_dir is not None:
        common.refuse_job_options("atlas", resume_dir, JOB_PARAMS,
                                  "--workers, --engine, --quiet")  # fmt: skip
        folder = AtlasFolder.reopen(resume_dir)
    elif out_dir is None:
        raise common.UserError("atlas needs --out DIR (or --resume DIR), e.g. president atlas "
                               "--out runs/atlas")  # fmt: skip
    else:
        folder = create_atlas(out_dir, rules_specs, base, field, rounds, min_batches,
                              max_batches, max_edge_batches, match_batches, seed,
                              budget_scale=budget_scale, every=every, luck_dose=luck_dose,
                              skill_dose=skill_dose, mix_batches=mix_batches)  # fmt: skip
    usual, high = estimate_minutes(folder.rule_sets, folder.settings, workers)
    took = (
        "under a minute" if high < 1 else f"about {max(usual, 1):.0f} minutes (at most {high:.0f})"
    )
    cores = f"{workers} worker{'s' if workers > 1 else ''}"
    lines = [
        f"atlas: {len(folder.rule_sets)} rule sets, {took} on {cores} (more on a busy machine)",
        *dose_lines(folder.settings.luck_dose, folder.settings.skill_dose),
    ]
    for line in text.wrap_lines(lines, output_width()):
        click.echo(line, err=True)
    from reports.atlas.page import write_atlas_page  # matplotlib: once the atlas is set

    with terminations_interrupt() as received:
        try:
            with step_line(not quiet) as status:
                path = run_folder(folder, engine, workers, status, write_atlas_page)
        except KeyboardInterrupt:
            exit_interrupted(
                received, f"the batches played are kept: president atlas --resume {folder.path}"
            )
    click.echo(f"saved to {folder.path / PARQUET}; page: {path}")
    say_verdicts(folder.path / PARQUET, path, output_width())


def dose_lines(luck: float, skill: float) -> list[str]:
    """What a dosed atlas says before it starts: its numbers are an instrument's check,
    not the rules' measures."""
    doses = [f"{what} {dose:g}" for what, dose in (("luck", luck), ("skill", skill)) if dose]
    if not doses:
        return []
    return [f"atlas: dosed ({', '.join(doses)}): a measurement instrument's check "
            "(docs/skill.md), not the rule sets' own figures"]  # fmt: skip


def say_verdicts(parquet: Path, page: Path, width: int) -> None:
    """The end of a run: the verdicts that hold in words, the rule sets whose verdict
    depends on the level of play by name, and where the page says each level's figure
    (docs/skill.md, "Verdicts that hold")."""
    import pandas as pd  # the atlas's rows, read once it is done

    from simulator.runs.atlas.verdicts import DEPENDS, held, verdicts

    table = verdicts(pd.read_parquet(parquet))
    first = held(table)
    lines = ["", "Verdicts that hold (every level of play agrees):"]
    lines += [f"  - {s}" for s in first["sentence"]] or ["  none"]
    depends = table.loc[table["verdict"] == DEPENDS, "rule_set"].tolist()
    if depends:
        lines.append(f"Depends on the level of play (no verdict): {', '.join(depends)}.")
    lines.append(f"Each level's figures, the skill curve and the luck measures: {page}")
    for line in text.wrap_lines(lines, width):
        click.echo(line)
