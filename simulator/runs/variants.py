"""The jobs of ``president compare``: one run per rule set, on the same matches and deals.

Every variant plays the same number of matches with the same seed and strategies, so
match m of every variant starts from the same shuffle and first dealer (common random
numbers); rule sets with a scoring target play those matches to their own length.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from simulator.rules.options import Rules, RulesError
from simulator.rules.presets import PRESETS
from simulator.runs.job import (
    DEFAULT_ROUNDS_PER_MATCH,
    SimConfig,
    SimulationError,
    check_sizes,
    default_strategies,
    make_config,
    matches_wanted,
)
from strategies.specs import StrategyError


def variant_names(specs: Sequence[str]) -> list[str]:
    """A short, unique folder-safe name per ``--rules``: the preset, or the file's stem."""
    names: list[str] = []
    for spec in specs:
        base = spec if spec in PRESETS else Path(spec).stem
        name, k = base, 2
        while name in names:
            name, k = f"{base}-{k}", k + 1
        names.append(name)
    return names


def variant_configs(
    variants: Sequence[tuple[str, Rules]],
    players: int | None,
    strategy_names: Sequence[str] | None,
    seed: int,
    matches: int | None,
    rounds: int | None,
    rounds_per_match: int | None,
) -> list[SimConfig]:
    """One job per ``(name, rules)``, all with the same matches, seed and strategies.

    ``--rounds`` becomes matches of ``--rounds-per-match`` rounds, the same number in every
    variant; each job is validated as ``president simulate`` validates its own.
    """
    if len(variants) < 2:
        raise SimulationError(
            f"compare needs at least two --rules (got {len(variants)}): e.g. "
            "--rules french --rules spade"
        )
    check_sizes(matches, rounds, rounds_per_match)
    k = rounds_per_match or DEFAULT_ROUNDS_PER_MATCH
    wanted = matches_wanted(matches, rounds, k)
    configs = []
    for name, rules in variants:
        try:
            if players is not None:
                rules = rules.with_options(players=players)
            names = list(strategy_names or default_strategies(rules.players))
            configs.append(
                make_config(
                    rules, names, seed, matches=wanted, rounds_per_match=None if rules.target else k
                )
            )
        except (RulesError, SimulationError, StrategyError) as exc:
            raise SimulationError(f"--rules {name}: {exc}") from None
    if len({c.rules.players for c in configs}) > 1:
        raise SimulationError(
            "the rule sets have different numbers of players (allowed: the same, or --players N)"
        )
    return configs
