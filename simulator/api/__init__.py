"""The Python API: ``from simulator import simulate, compare, tournament, report, tune, atlas``.

Each function takes the arguments of the command of the same name (docs/cli.md), spelt
as Python keywords (``--rounds-per-match`` is ``rounds_per_match``, ``--strategies`` a
list or a comma-separated string, ``--rules`` a preset name, a rules file or a
:class:`~simulator.rules.options.Rules`), resolves them with the commands' own functions
(:mod:`simulator.runs.arguments`), runs them with the commands' own orchestration
(``simulator/runs``: the ``*_run`` modules, with progress and output callbacks; never
the commands themselves) and returns the results as DataFrames
(:mod:`simulator.api.results`): the same numbers the command prints. A mistake raises
the command's :class:`~simulator.errors.PresidentError`, never ``SystemExit``; progress is
off unless ``progress=True`` (then shown on standard error when it is a terminal).
docs/api.md has examples.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from simulator.api.results import Advised, Compared, Report, Simulation, Tournament, Tuned
from simulator.reference.match import MAX_ROUNDS
from simulator.runs.arguments import (
    TUNE_SIZES,
    RulesSpec,
    StrategyList,
    check_tournament_engine,
    compare_variants,
    rules_of,
    simulation_job,
    tournament_job,
    tune_job,
)
from simulator.runs.atlas.folder import PARQUET, read_atlas
from simulator.runs.atlas.run import DEFAULTS as ATLAS_DEFAULTS
from simulator.runs.engines import KERNEL_ENGINES, machine_cores
from simulator.runs.progress import rounds_bar, silent, step_line, to_stderr

__all__ = ["Advised", "Compared", "Report", "Simulation", "Tournament", "Tuned", "advise", "atlas", "compare",
           "report", "simulate", "tournament", "tune"]  # fmt: skip


def simulate(
    rules: RulesSpec = "french",
    players: int | None = None,
    strategies: StrategyList = None,
    matches: int | None = None,
    rounds: int | None = None,
    rounds_per_match: int | None = None,
    max_rounds: int = MAX_ROUNDS,
    seed: int = 0,
    workers: int | None = None,
    out: str | Path | None = None,
    duplicate: bool = False,
    engine: str = "numba",
    scheduler: str | None = None,
    resume: str | Path | None = None,
    report: bool = False,
    progress: bool = False,
) -> Simulation:
    """``president simulate``: play the job, write its folder, return its results.

    Without ``out`` the run goes to a temporary folder that lives as long as the result
    (so ``rounds`` and ``results`` can still be read); ``resume`` finishes an interrupted
    run from its folder (its job comes from the folder, the job's arguments are ignored);
    ``report`` also writes the folder's ``report.html``.
    """
    from simulator.runs.simulate import resume as resume_run
    from simulator.runs.simulate import run

    scratch = None
    with rounds_bar(progress) as bar:
        if resume is not None:
            folder, result = resume_run(Path(resume), workers or machine_cores(), bar, engine,
                                        scheduler)  # fmt: skip
            config, path = folder.config, Path(resume)
        else:
            config = simulation_job(rules, players, strategies, matches, rounds,
                                    rounds_per_match, max_rounds, seed, duplicate)  # fmt: skip
            if out is None:
                scratch = tempfile.TemporaryDirectory(prefix="president-run-")
            path = Path(out) if out is not None else Path(scratch.name) / "run"
            result = run(config, path, workers or machine_cores(), bar, engine, scheduler)
    page = _report_page(path, progress) if report else None
    return Simulation(config, path, result, page, scratch)


def compare(
    rules: Sequence[RulesSpec],
    players: int | None = None,
    strategies: StrategyList = None,
    matches: int | None = None,
    rounds: int | None = None,
    rounds_per_match: int | None = None,
    seed: int = 0,
    workers: int | None = None,
    engine: str = "numba",
    out: str | Path | None = None,
    resume: str | Path | None = None,
    skill: bool = False,
    progress: bool = False,
) -> Compared:
    """``president compare``: the same strategies and deals under each rule set of
    ``rules`` (the first is the baseline); with ``out``, its page and runs are kept there.
    ``skill``: also the atlas's measures of skill and luck for the rule sets (``--skill``;
    :attr:`Compared.skill`), at the cost of their own games."""
    from reports.compare.comparison import read_comparison
    from reports.compare.page import write_page
    from simulator.runs.compare.run import measure_skill, play_variants
    from simulator.runs.compare.variants import (
        check_skill,
        finish_compare,
        prepare_compare,
        reopen_compare,
    )

    if resume is not None:
        out = Path(resume)
        variants = reopen_compare(out)
    else:
        variants = compare_variants(rules, players, strategies, matches, rounds,
                                    rounds_per_match, seed)  # fmt: skip
    if skill:
        check_skill(variants)
    cores = workers or machine_cores()
    with tempfile.TemporaryDirectory(prefix="president-compare-") as scratch:
        root = Path(out) if out is not None else Path(scratch)
        if resume is None:
            prepare_compare(root, variants)
        play_variants(variants, root, cores, engine, progress, to_stderr)
        with step_line(progress) as status:
            comparison = read_comparison(root, variants, status)
        skill_frame = None
        if skill:
            with step_line(progress) as status:
                skill_frame = measure_skill(variants, cores, engine, status)
    page = None
    if out is not None:
        page = write_page(comparison, Path(out), skill_frame)
        finish_compare(Path(out), variants)
    return Compared(variants, comparison, None if out is None else Path(out), page, skill_frame)


def tournament(
    rules: RulesSpec = "french",
    players: int | None = None,
    strategies: StrategyList = None,
    matches: int = 400,
    rounds_per_match: int | None = None,
    max_rounds: int = MAX_ROUNDS,
    seed: int = 0,
    workers: int | None = None,
    engine: str = "numba",
    out: str | Path | None = None,
    report: bool = False,
    resume: str | Path | None = None,
    progress: bool = False,
) -> Tournament:
    """``president tournament``: rank the strategies on duplicate deals; with ``out``, the
    result files (and with ``report`` the strategy page) are written there."""
    from reports.strategy.page import write_tournament_page
    from simulator.runs.tournament.folder import TournamentFolder
    from simulator.runs.tournament.run import play_tables, save_results
    from simulator.runs.tournament.tables import TournamentError

    check_tournament_engine(engine)
    if report and out is None and resume is None:
        raise TournamentError(
            "report=True needs out=DIR (the page is written to DIR/tournament.html)"
        )
    if resume is not None:
        folder = TournamentFolder.reopen(Path(resume), report)
        settings, config = folder.rules, folder.config
    else:
        settings, config = tournament_job(rules, players, strategies, matches,
                                          rounds_per_match, max_rounds, seed)  # fmt: skip
        folder = None if out is None else TournamentFolder.create(Path(out), settings, config,
                                                                  report)  # fmt: skip
    with step_line(progress) as status:
        standings = play_tables(settings, config, workers or machine_cores(), folder, engine,
                                status)  # fmt: skip
    if folder is not None:
        save_results(folder, standings, write_tournament_page, silent)
    return Tournament(settings, config, standings, None if folder is None else folder.path)


def report(path: str | Path, progress: bool = False) -> Report:
    """``president report DIR``: write the run's ``report.html``; return it with every
    estimate on it (``results``: :class:`reports.results.RunResults`)."""
    from reports.build import write_page
    from reports.run_report import analysed_run

    with step_line(progress) as status:
        analysis = analysed_run(path, status)
    return Report(write_page(analysis), analysis.results)


def _report_page(path: Path, progress: bool) -> Path:
    """Write the report of the run in ``path`` (``simulate(..., report=True)``)."""
    return report(path, progress).path


def tune(
    strategy: str,
    rules: RulesSpec = "french",
    players: int | None = None,
    field: StrategyList = None,
    generations: int = TUNE_SIZES["generations"],
    population: int = TUNE_SIZES["population"],
    rounds_per_candidate: int = TUNE_SIZES["rounds_per_candidate"],
    held_out_rounds: int = TUNE_SIZES["held_out_rounds"],
    rounds_per_match: int | None = None,
    max_rounds: int = MAX_ROUNDS,
    seed: int = 0,
    workers: int | None = None,
    engine: str = "numba",
    out: str | Path | None = None,
    resume: str | Path | None = None,
    progress: bool = False,
) -> Tuned:
    """``president tune STRATEGY``: its numeric parameters tuned by CMA-ES for the rules,
    with the held-out check against the defaults. Without ``out`` the tune's folder
    (``tuned.toml``, ``tune.html``) is temporary, removed with the result."""
    from reports.tune.page import write_tune_page
    from simulator.runs.tune.folder import TuneFolder
    from simulator.runs.tune.play import TuneError
    from simulator.runs.tune.run import finish_tune, search_generations

    if engine not in KERNEL_ENGINES:
        raise TuneError(f"engine {engine!r} is not one of {', '.join(KERNEL_ENGINES)}")
    scratch = None
    if resume is not None:
        folder = TuneFolder.reopen(Path(resume))
    else:
        sizes = {"generations": generations, "population": population,
                 "rounds_per_candidate": rounds_per_candidate,
                 "held_out_rounds": held_out_rounds,
                 "rounds_per_match": rounds_per_match,
                 "max_rounds": max_rounds}  # fmt: skip
        settings, config = tune_job(strategy, rules, players, field, sizes, seed)
        if out is None:
            scratch = tempfile.TemporaryDirectory(prefix="president-tune-")
        path = Path(out) if out is not None else Path(scratch.name) / "tune"
        folder = TuneFolder.create(path, settings, config)
    with step_line(progress) as status:
        state = search_generations(folder, engine, workers or machine_cores(), status)
    page = finish_tune(folder, state, write_tune_page, silent)
    return Tuned(folder.rules, folder.config, state, folder.path, page, scratch)


def advise(
    rules: RulesSpec = "french",
    players: int | None = None,
    mined: int = 600,
    matches: int = 8000,
    champion_matches: int = 1200,
    seed: int = 0,
    workers: int | None = None,
    out: str | Path | None = None,
    progress: bool = False,
) -> Advised:
    """``president advise``: tips mined from champion under ``rules``, each measured.
    ``out`` keeps the folder (and resumes an interrupted one); without, it is temporary,
    removed with the result."""
    from reports.advice import advice_text, advise_and_write
    from simulator.runs.advice.run import Advice

    settings = rules_of(rules, players)
    advice = Advice(settings, seed, mined, matches=matches, champion_matches=champion_matches,
                    workers=workers or machine_cores())  # fmt: skip
    scratch = None if out is not None else tempfile.TemporaryDirectory(prefix="president-advice-")
    path = Path(out) if out is not None else Path(scratch.name) / "advice"
    name = rules if isinstance(rules, str) else "these rules"
    table, found = advise_and_write(advice, path, str(name), to_stderr if progress else silent)
    page = path / "advice.html"
    text = advice_text(table, found.tips_path, str(page))
    return Advised(table, Path(found.tips_path), page, text, scratch)


def atlas(
    rules: Sequence[str] = (),
    base: str = "french",
    field: str = "linear",
    rounds: int = ATLAS_DEFAULTS.batch_rounds,
    min_batches: int = ATLAS_DEFAULTS.min_batches,
    max_batches: int = ATLAS_DEFAULTS.max_batches,
    max_edge_batches: int = ATLAS_DEFAULTS.max_edge_batches,
    match_batches: int = ATLAS_DEFAULTS.match_batches,
    mix_batches: int = ATLAS_DEFAULTS.mix_batches,
    seed: int = 0,
    workers: int | None = None,
    engine: str = "numba",
    out: str | Path | None = None,
    resume: str | Path | None = None,
    progress: bool = False,
    budget_scale: float = ATLAS_DEFAULTS.budget_scale,
    all_rule_sets: bool = False,
) -> pd.DataFrame:
    """``president atlas``: skill and luck under each rule set, as the rows of
    ``atlas.parquet`` (one per rule set and measure, docs/formats.md). ``rules``: the rule
    sets (presets or rules files, the first the base of the paired differences); none: the
    default atlas around ``base`` (``all_rule_sets``: the full one). ``budget_scale``
    multiplies every search rung's knob (``--budget-scale``). Without ``out`` the folder
    is temporary."""
    from reports.atlas.page import write_atlas_page
    from simulator.runs.atlas.folder import AtlasFolder
    from simulator.runs.atlas.run import create_atlas, run_folder
    from simulator.runs.atlas.sets import AtlasError

    if engine not in KERNEL_ENGINES:
        raise AtlasError(f"engine {engine!r} is not one of {', '.join(KERNEL_ENGINES)}")
    with tempfile.TemporaryDirectory(prefix="president-atlas-") as scratch:
        if resume is not None:
            folder = AtlasFolder.reopen(Path(resume))
        else:
            specs = [rules] if isinstance(rules, str) else list(rules)
            path = Path(out) if out is not None else Path(scratch) / "atlas"
            folder = create_atlas(path, specs, base, field, rounds, min_batches, max_batches,
                                  max_edge_batches, match_batches, seed,
                                  budget_scale=budget_scale, every=all_rule_sets,
                                  mix_batches=mix_batches)  # fmt: skip
        with step_line(progress) as status:
            run_folder(folder, engine, workers or machine_cores(), status, write_atlas_page)
        return read_atlas(folder.path / PARQUET)
