"""The jobs the commands describe, from their arguments: declared once for the command
line (``president simulate``, ``compare``, ``tournament``, ``tune``) and the Python API
(:mod:`simulator.api`).

Each function takes the arguments as the command's options give them — rules as a
preset name or a rules file (or, from Python, a :class:`~simulator.rules.options.Rules`),
strategies as ``"a,b,c"`` or a list — and returns the checked job; any mistake raises a
:class:`~simulator.errors.PresidentError` naming what is wrong and what is allowed.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from simulator.reference.match import MAX_ROUNDS
from simulator.rules.files import load_rules
from simulator.rules.options import Rules
from simulator.runs.job import (
    DEFAULT_ROUNDS_PER_MATCH,
    SimConfig,
    check_sizes,
    default_strategies,
    make_config,
)
from strategies import registry

if TYPE_CHECKING:  # each imported by the one function that needs it, not by ``simulate``
    from simulator.runs.compare.variants import Variant
    from simulator.runs.tournament.tables import TournamentConfig
    from simulator.runs.tune.play import TuneConfig

RulesSpec = str | Path | Rules  # a preset name, a rules file, or rules already made
StrategyList = str | Sequence[str] | None  # "a,b,c", ["a", "b", "c"], or None: the default


def rules_of(spec: RulesSpec, players: int | None = None) -> Rules:
    """The rules ``--rules`` names (a preset or a file), with ``--players`` when given."""
    rules = spec if isinstance(spec, Rules) else load_rules(spec)
    return rules if players is None else rules.with_options(players=players)


def strategy_names(strategies: StrategyList) -> list[str] | None:
    """``--strategies``' list, each name stripped; None when none is given."""
    if not strategies:
        return None
    items = registry.split_names(strategies) if isinstance(strategies, str) else strategies
    return [s.strip() for s in items]


def simulation_job(
    rules: RulesSpec = "french",
    players: int | None = None,
    strategies: StrategyList = None,
    matches: int | None = None,
    rounds: int | None = None,
    rounds_per_match: int | None = None,
    max_rounds: int = MAX_ROUNDS,
    seed: int = 0,
    duplicate: bool = False,
) -> SimConfig:
    """The job of ``president simulate`` (the default line-up when no strategies are named)."""
    resolved = rules_of(rules, players)
    names = strategy_names(strategies) or default_strategies(resolved.players)
    return make_config(
        resolved, names, seed, matches, rounds, rounds_per_match, max_rounds, duplicate
    )


def compare_variants(
    rules: Sequence[RulesSpec],
    players: int | None = None,
    strategies: StrategyList = None,
    matches: int | None = None,
    rounds: int | None = None,
    rounds_per_match: int | None = None,
    seed: int = 0,
) -> list[Variant]:
    """The variants of ``president compare``: one per rule set, named after it (a
    :class:`Rules` given from Python is named ``variant-1``, ``variant-2`` …)."""
    from simulator.runs.compare.variants import variant_configs, variants_of

    specs = [
        f"variant-{i + 1}" if isinstance(spec, Rules) else str(spec) for i, spec in enumerate(rules)
    ]
    made = [(label, rules_of(spec)) for label, spec in zip(specs, rules, strict=True)]
    configs = variant_configs(
        made, players, strategy_names(strategies), seed, matches, rounds, rounds_per_match
    )
    return variants_of(specs, configs)


def tournament_job(
    rules: RulesSpec = "french",
    players: int | None = None,
    strategies: StrategyList = None,
    matches: int = 400,
    rounds_per_match: int | None = None,
    max_rounds: int = MAX_ROUNDS,
    seed: int = 0,
) -> tuple[Rules, TournamentConfig]:
    """The rules and tournament of ``president tournament`` (every registered strategy
    when none are named)."""
    # pandas loads with a tournament only, not with ``president simulate``
    from simulator.runs.tournament.tables import TournamentConfig, TournamentError

    resolved = rules_of(rules, players)
    check_sizes(matches, None, rounds_per_match, max_rounds)
    names = strategy_names(strategies) or registry.fair_names()
    if len(set(names)) < 2:
        shown = ",".join(names)
        raise TournamentError(
            f"a tournament needs at least 2 different strategies, not --strategies "
            f"{shown}: e.g. president tournament --strategies lowest,random"
        )
    k = rounds_per_match or DEFAULT_ROUNDS_PER_MATCH
    return resolved, TournamentConfig(tuple(names), matches, k, max_rounds, seed)


def check_tournament_engine(engine: str) -> None:
    """A tournament's tables play on this machine: ``numba`` or ``python``, not ``dask``."""
    from simulator.runs.engines import LOCAL
    from simulator.runs.tournament.tables import TournamentError

    if engine not in LOCAL:
        raise TournamentError(
            f"--engine {engine} does not play tournaments (allowed: {', '.join(LOCAL)})"
        )


def tune_job(
    strategy: str,
    rules: RulesSpec = "french",
    players: int | None = None,
    field: StrategyList = None,
    sizes: dict[str, int] | None = None,
    seed: int = 0,
) -> tuple[Rules, TuneConfig]:
    """The tune of ``president tune``: ``sizes`` are its counts by option name
    (``generations``, ``population``, ``rounds_per_candidate``, ``held_out_rounds``,
    ``rounds_per_match``, ``max_rounds``; each, when missing or None, the command's)."""
    from simulator.runs.tune.play import (
        TuneConfig,
        TuneError,
        check_field,
        default_field,
        tuned_spec,
    )

    spec = tuned_spec(strategy)
    resolved = rules_of(rules, players)
    sizes = {**TUNE_SIZES, **{k: v for k, v in (sizes or {}).items() if v is not None}}
    for option, value in sizes.items():
        least = 2 if option == "population" else 1
        if value < least and not (option == "population" and value == 0):
            flag = "--" + option.replace("_", "-")
            raise TuneError(f"{flag} must be at least {least}, not {value}")
    check_sizes(None, None, sizes["rounds_per_match"], sizes["max_rounds"])
    names = strategy_names(field) or default_field(spec.name, resolved.players)
    return resolved, TuneConfig(spec.name, check_field(names, resolved.players), seed=seed, **sizes)


# president tune's counts by default (its options show them)
TUNE_SIZES = {"generations": 20, "population": 0, "rounds_per_candidate": 2_000,
              "held_out_rounds": 20_000, "rounds_per_match": DEFAULT_ROUNDS_PER_MATCH,
              "max_rounds": MAX_ROUNDS}  # fmt: skip
