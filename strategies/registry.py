"""The strategy registry: name → how to play it.

Every strategy has a name, a one-line description, a kernel id (the kernel dispatches
built-ins by integer, which keeps its compiled cache valid), its named parameters with
their defaults, and a plain-Python implementation for the reference engine (``lowest``
and ``random`` as the rule book writes them; the heuristics through
:class:`strategies.adapter.KernelStrategy`, which calls the kernel's own function).

A strategy is named on the command line as ``NAME`` or ``NAME:key=value,key=value`` to
change parameters (``control:strength=12``): variants need no recompilation.
"""

from __future__ import annotations

from collections.abc import Sequence

from strategies.base import Strategy
from strategies.lowest import Lowest
from strategies.random_strategy import Random
from strategies.specs import (
    CHAMPION,
    CHAMPION_PARAMS,
    CLAIRVOYANT,
    CLAIRVOYANT_PARAMS,
    CONTROL,
    CONTROL_PARAMS,
    KEEP_SETS,
    KEEP_SETS_PARAMS,
    LINEAR,
    LINEAR_PARAMS,
    LOWEST,
    MONTECARLO,
    MONTECARLO_PARAMS,
    MONTECARLO_PRIOR,
    MONTECARLO_ROLLOUT,
    PLANNER,
    PLANNER_PARAMS,
    POLICY_PARAMS,
    RANDOM,
    RULES_AWARE,
    RULES_AWARE_PARAMS,
    SHED_MAX,
    SHED_MAX_PARAMS,
    StrategyError,
    StrategySpec,
)


def _kernel_python(spec: StrategySpec) -> Strategy:
    from strategies.adapter import KernelStrategy

    return KernelStrategy(spec.label, spec.kernel_id, spec.kernel_vector)


REGISTRY: dict[str, StrategySpec] = {
    s.name: s
    for s in (
        StrategySpec(
            "lowest",
            "Weakest legal play; leads all cards of its weakest rank.",
            lambda spec: Lowest(),
            LOWEST,
        ),
        StrategySpec(
            "random",
            "Uniform choice among the legal moves (pass included).",
            lambda spec: Random(),
            RANDOM,
        ),
        StrategySpec(
            "keep-sets",
            "Never breaks a pair/three/four to follow (passes instead); leads its weakest group.",
            _kernel_python,
            KEEP_SETS,
            KEEP_SETS_PARAMS,
        ),
        StrategySpec(
            "control",
            "Keeps aces and 2s to win tricks and regain the lead; cashes unbeatable groups to go out.",
            _kernel_python,
            CONTROL,
            CONTROL_PARAMS,
        ),
        StrategySpec(
            "shed-max",
            "Plays the combination shedding most cards; strongest first when few groups remain.",
            _kernel_python,
            SHED_MAX,
            SHED_MAX_PARAMS,
        ),
        StrategySpec(
            "planner",
            "Values each move by the plays its hand still needs to go out, minus sure winners.",
            _kernel_python,
            PLANNER,
            PLANNER_PARAMS,
        ),
        StrategySpec(
            "rules-aware",
            "Never passes when it can play (whole groups first, 2s last); sheds 2s under no_finish_on_two, skips, burns, revolts, cuts with 8s and jacks.",
            _kernel_python,
            RULES_AWARE,
            RULES_AWARE_PARAMS,
        ),
        StrategySpec(
            "linear",
            "Scores each move by a weighted sum of its features (cards, strength, groups left, sure winners, table rules); plays the best.",
            _kernel_python,
            LINEAR,
            LINEAR_PARAMS,
        ),
    )
}


# the strategies that search, which no rollout or prior may be (strategies.policies
# dispatches every other one)
SEARCH_PLAYERS = frozenset({"montecarlo", "champion", "clairvoyant"})
POLICY_SLOTS = (MONTECARLO_ROLLOUT, MONTECARLO_PRIOR)  # montecarlo's slots naming a policy by id
KERNEL_ID_PARAMS = tuple(MONTECARLO_PARAMS[slot].name for slot in POLICY_SLOTS)


def policy_ids() -> str:
    """The kernel ids montecarlo's ``rollout`` and ``prior`` may name, with their names:
    ``0 lowest, 1 random, …`` (every built-in but the search players)."""
    return ", ".join(
        f"{s.kernel_id} {s.name}" for s in REGISTRY.values() if s.name not in SEARCH_PLAYERS
    )


def _policy(values: tuple[float, ...], slot: int, what: str) -> StrategySpec:
    """The basic strategy whose kernel id is ``values[slot]`` (montecarlo's helpers)."""
    policy = next((s for s in REGISTRY.values() if s.kernel_id == int(values[slot])), None)
    if policy is None or policy.name in SEARCH_PLAYERS:
        raise StrategyError(
            f"montecarlo: {what} must be one of {policy_ids()}, not {values[slot]:g}"
        )
    return policy


def _search_slots(values: tuple[float, ...]) -> tuple[float, ...]:
    """montecarlo's row: its own values, then the rollout policy's and the prior's
    parameters (their defaults), POLICY_PARAMS slots each, from ROLLOUT_SLOT and
    PRIOR_SLOT (strategies.specs; strategies.montecarlo reads them there)."""
    slots = list(values)
    for slot, what in zip(POLICY_SLOTS, KERNEL_ID_PARAMS, strict=True):
        vector = _policy(values, slot, what).vector
        slots += [*vector, *[0.0] * (POLICY_PARAMS - len(vector))]
    return tuple(slots)


SEARCH_NOTE = "it reads the exchange knowledge the kernel records; use --engine numba"
REGISTRY["montecarlo"] = StrategySpec(
    "montecarlo",
    "Search: samples the unseen cards, plays each move out with a fast policy, best mean place.",
    None,
    MONTECARLO,
    MONTECARLO_PARAMS,
    python_note=SEARCH_NOTE,
    extend=_search_slots,
)


def _linear_slots(values: tuple[float, ...]) -> tuple[float, ...]:
    """champion's and clairvoyant's row: their own values, then linear's parameters
    (its rollouts and prior) from CHAMPION_POLICY_SLOT, where strategies.champion reads
    them: linear's declared defaults, so tuned weights reach the search with them."""
    vector = REGISTRY["linear"].vector
    return (*values, *vector, *[0.0] * (POLICY_PARAMS - len(vector)))


REGISTRY["champion"] = StrategySpec(
    "champion",
    "Search: hand guesses weighted by the opponents' passes, playouts by UCB1 with linear, exact endgames.",
    None,
    CHAMPION,
    CHAMPION_PARAMS,
    python_note=SEARCH_NOTE,
    extend=_linear_slots,
)
REGISTRY["clairvoyant"] = StrategySpec(
    "clairvoyant",
    "SEES EVERY HAND (a yardstick, never in a default line-up): champion's search on the true deal.",
    None,
    CLAIRVOYANT,
    CLAIRVOYANT_PARAMS,
    python_note="it sees every hand, which the reference engine shows no strategy",
    extend=_linear_slots,
)
SEES_EVERY_HAND = frozenset({"clairvoyant"})  # registered, but in no default line-up


def names() -> list[str]:
    """Every registered strategy name."""
    return list(REGISTRY)


def fair_names() -> list[str]:
    """Every registered strategy that sees only what a player may: a default line-up."""
    return [name for name in REGISTRY if name not in SEES_EVERY_HAND]


def get(name: str) -> StrategySpec:
    """The spec of ``NAME``, ``NAME:key=value,…`` or a user's ``FILE.py:name``
    (:mod:`strategies.user`), or a StrategyError naming the allowed ones."""
    if name.partition(":")[0].endswith(".py"):
        from strategies.user import load

        return load(name)
    base, _, args = name.partition(":")
    if base not in REGISTRY:
        raise StrategyError(f"unknown strategy {base!r} (allowed: {', '.join(REGISTRY)})")
    spec = REGISTRY[base].with_values(args) if args else REGISTRY[base]
    _ = spec.kernel_vector  # refuses values that imply no valid kernel row (a bad rollout id)
    return spec


def make(name: str) -> Strategy:
    """A fresh plain-Python instance of a registered strategy."""
    return get(name).make()


def per_seat(
    names: Sequence[str], seats: int, what: str = "strategies", holders: str = "players"
) -> list[str]:
    """One strategy name per seat from one name for all or exactly one per seat.

    Every name is checked first, so a misspelt one is named rather than miscounted.
    """
    names = [name.strip() for name in names]
    for name in names:
        get(name)
    if len(names) == 1:
        names *= seats
    if len(names) != seats:
        raise StrategyError(
            f"{len(names)} {what} for {seats} {holders} (allowed: one name for all, "
            f"or exactly {seats} names separated by commas)"
        )
    return names
