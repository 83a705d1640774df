"""The strategy registry: name → how to play it.

Every strategy has a name, a one-line description, a kernel id (the kernel dispatches
built-ins by integer, which keeps its compiled cache valid), its named parameters with
their defaults — for a built-in, all declared once in :mod:`strategies.specs` — and a
plain-Python implementation for the reference engine, which this module adds (``lowest``
and ``random`` as the rule book writes them; the heuristics through
:class:`strategies.adapter.KernelStrategy`, which calls the kernel's own function).

A strategy is named on the command line as ``NAME`` or ``NAME:key=value,key=value`` to
change parameters (``control:strength=12``): variants need no recompilation.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import partial
from typing import Any, TypeVar

from simulator.errors import did_you_mean
from simulator.rules.options import Rules
from strategies import tuned
from strategies.base import Strategy
from strategies.lowest import Lowest
from strategies.random_strategy import Random
from strategies.shipped import DEFAULTS, digest, search_for, search_source, weights_for
from strategies.specs import (
    BUILT_INS,
    CHAMPION,
    CHAMPION_POLICY_SLOT,
    CLAIRVOYANT,
    LINEAR,
    LOWEST,
    MONTECARLO,
    MONTECARLO_PRIOR,
    MONTECARLO_ROLLOUT,
    POLICY_PARAMS,
    PRIOR_SLOT,
    RANDOM,
    ROLLOUT_SLOT,
    SEARCH_IDS,
    BuiltIn,
    StrategyError,
    StrategySpec,
)
from strategies.tuned import is_tuned_file

T = TypeVar("T")  # what one_per_seat hands out: names or specs


def _kernel_python(spec: StrategySpec) -> Strategy:
    from strategies.adapter import KernelStrategy

    return KernelStrategy(spec.label, spec.kernel_id, spec.kernel_vector)


# The rule book's own plain-Python versions; every other built-in but the search player
# plays on the reference engine through the kernel's own function (_kernel_python).
_PLAIN_PYTHON = {LOWEST: lambda spec: Lowest(), RANDOM: lambda spec: Random()}


SEARCH_NOTE = "it reads the exchange knowledge the kernel records; use --engine numba"
# the built-ins with no plain-Python version: why, and the kernel slots their row goes on with
_KERNEL_ONLY = {
    MONTECARLO: (SEARCH_NOTE, lambda values: _search_slots(values)),
    CHAMPION: (SEARCH_NOTE, lambda values: _linear_slots(values)),
    CLAIRVOYANT: (
        "it sees every hand, which the reference engine shows no strategy",
        lambda values: _linear_slots(values),
    ),
}
SEES_EVERY_HAND = frozenset({CLAIRVOYANT})  # registered, but in no default line-up


def _registered(b: BuiltIn) -> StrategySpec:
    """The registry's entry of a built-in as :mod:`strategies.specs` declares it."""
    if b.kernel_id in _KERNEL_ONLY:
        note, extend = _KERNEL_ONLY[b.kernel_id]
        return StrategySpec(
            b.name,
            b.description,
            None,
            b.kernel_id,
            b.params,
            params_version=b.params_version,
            python_note=note,
            extend=extend,
        )
    make = _PLAIN_PYTHON.get(b.kernel_id, _kernel_python)
    return StrategySpec(
        b.name, b.description, make, b.kernel_id, b.params, params_version=b.params_version
    )


POLICY_SLOTS = (MONTECARLO_ROLLOUT, MONTECARLO_PRIOR)  # montecarlo's slots naming a policy by id
KERNEL_ID_PARAMS = tuple(
    next(b for b in BUILT_INS if b.kernel_id == MONTECARLO).params[slot].name
    for slot in POLICY_SLOTS
)


def policy_ids() -> str:
    """The kernel ids montecarlo's ``rollout`` and ``prior`` may name, with their names:
    ``0 lowest, 1 random, …`` (every built-in but the search players)."""
    return ", ".join(
        f"{s.kernel_id} {s.name}" for s in REGISTRY.values() if s.kernel_id not in SEARCH_IDS
    )


def _policy(values: tuple[float, ...], slot: int, what: str) -> StrategySpec:
    """The basic strategy whose kernel id is ``values[slot]`` (montecarlo's helpers)."""
    policy = next((s for s in REGISTRY.values() if s.kernel_id == int(values[slot])), None)
    if policy is None or policy.kernel_id in SEARCH_IDS:
        raise StrategyError(
            f"montecarlo: {what} must be one of {policy_ids()}, not {values[slot]:g}"
        )
    return policy


def _search_slots(
    values: tuple[float, ...], linear: tuple[float, ...] = DEFAULTS
) -> tuple[float, ...]:
    """montecarlo's row: its own values, then the rollout policy's and the prior's
    parameters (their defaults; ``linear``'s weights when one is linear), POLICY_PARAMS
    slots each, from ROLLOUT_SLOT and PRIOR_SLOT (strategies.specs; strategies.montecarlo
    reads them there)."""
    slots = list(values)
    for slot, what in zip(POLICY_SLOTS, KERNEL_ID_PARAMS, strict=True):
        policy = _policy(values, slot, what)
        vector = linear if policy.kernel_id == LINEAR else policy.vector
        slots += [*vector, *[0.0] * (POLICY_PARAMS - len(vector))]
    return tuple(slots)


def _linear_slots(
    values: tuple[float, ...], linear: tuple[float, ...] = DEFAULTS
) -> tuple[float, ...]:
    """champion's and clairvoyant's row: their own values, then linear's parameters
    (its rollouts and prior) from CHAMPION_POLICY_SLOT, where strategies.champion reads
    them: ``linear``, by default linear's declared defaults."""
    return (*values, *linear, *[0.0] * (POLICY_PARAMS - len(linear)))


# The search players last, as they are listed: they name the others (rollouts and priors).
REGISTRY: dict[str, StrategySpec] = {
    b.name: _registered(b) for b in sorted(BUILT_INS, key=lambda b: b.kernel_id in SEARCH_IDS)
}


def fair_names() -> list[str]:
    """Every registered strategy that sees only what a player may: a default line-up."""
    return [s.name for s in REGISTRY.values() if s.kernel_id not in SEES_EVERY_HAND]


def names() -> list[str]:
    """Every registered strategy name."""
    return list(REGISTRY)


def get(name: str, rules: Rules | None = None) -> StrategySpec:
    """The spec of ``NAME``, ``NAME:key=value,…``, a user's ``FILE.py:name``
    (:mod:`strategies.user`) or a tuned file ``DIR/tuned.toml`` (:mod:`strategies.tuned`),
    or a StrategyError naming the allowed ones.

    ``rules``: the rules in force, given where a parameter row is made for a game. linear
    then plays the weights shipped for them (:func:`strategies.shipped.weights_for`),
    alone and in the search players' playouts; the name's own ``key=value`` still win, and
    a tuned file's values are kept. Without, linear's declared defaults.
    """
    if is_tuned_file(name):
        return _with_weights(tuned.load(name, REGISTRY), rules, own=False)
    if name.partition(":")[0].endswith(".py"):
        from strategies.user import load

        return load(name)
    base, _, args = name.partition(":")
    if base not in REGISTRY:
        raise StrategyError(
            f"unknown strategy {base!r}{did_you_mean(base, REGISTRY)} "
            f"(allowed: {', '.join(REGISTRY)})"
        )
    spec = _with_weights(REGISTRY[base], rules)
    spec = spec.with_values(args) if args else spec
    _ = spec.kernel_vector  # refuses values that imply no valid kernel row (a bad rollout id)
    return spec


def _with_weights(spec: StrategySpec, rules: Rules | None, own: bool = True) -> StrategySpec:
    """``spec`` playing linear's weights for ``rules`` wherever it plays linear, and the
    search players with the search settings shipped for ``rules`` (:func:`search_for`;
    its own values only when ``own``: not a tuned file's)."""
    if rules is None or spec.kernel_id not in (LINEAR, *SEARCH_IDS):
        return spec  # plays no weights: the shipped sets are not even read
    weights = weights_for(rules).values
    if spec.kernel_id == LINEAR:
        return replace(spec, values=weights) if own else spec
    if spec.kernel_id in (CHAMPION, CLAIRVOYANT):
        spec = replace(spec, extend=partial(_linear_slots, linear=weights))
        search = search_for(rules) if own else {}
        names = [p.name for p in spec.params]
        values = [search.get(name, value) for name, value in zip(names, spec.vector, strict=True)]
        return replace(spec, values=tuple(values))
    if spec.kernel_id == MONTECARLO:
        return replace(spec, extend=partial(_search_slots, linear=weights))
    return spec


def linear_weights(name: str, rules: Rules) -> dict[str, Any] | None:
    """Where the linear weights strategy ``name`` plays under ``rules`` come from, and
    their short sha256 (``summary.json``), or None when it plays no linear."""
    spec = get(name, rules)
    row, size = spec.kernel_vector, len(DEFAULTS)
    if spec.kernel_id == LINEAR:
        values = spec.vector
    elif spec.kernel_id in (CHAMPION, CLAIRVOYANT):
        values = row[CHAMPION_POLICY_SLOT : CHAMPION_POLICY_SLOT + size]
    elif spec.kernel_id == MONTECARLO and LINEAR in (row[s] for s in POLICY_SLOTS):
        start = ROLLOUT_SLOT if row[MONTECARLO_ROLLOUT] == LINEAR else PRIOR_SLOT
        values = row[start : start + size]
    else:
        return None
    resolved = weights_for(rules).source
    if is_tuned_file(name) and spec.kernel_id == LINEAR:
        source = f"the tuned file {name}"
    elif tuple(values) != weights_for(rules).values:
        source = f"{resolved}, changed by the name {name!r}"
    else:
        source = resolved
    return {"source": source, "sha256": digest(values)}


def weights_played(names: Iterable[str], rules: Rules) -> dict[str, dict[str, Any]]:
    """:func:`linear_weights` of each strategy of ``names`` that plays linear: what a
    run's ``summary.json`` and a tournament's ``tournament.json`` record."""
    found = {name: linear_weights(name, rules) for name in names}
    return {name: entry for name, entry in found.items() if entry is not None}


def search_played(names: Iterable[str], rules: Rules) -> dict[str, dict[str, Any]]:
    """Per strategy of ``names`` that is ``champion`` or ``clairvoyant``: the search
    parameters it plays under ``rules`` and where they come from (the declared defaults,
    or the settings shipped for the rules' set, :func:`strategies.shipped.search_for`):
    what ``summary.json`` and ``tournament.json`` record beside the weights."""
    found = {}
    for name in names:
        spec = get(name, rules)
        if spec.kernel_id not in (CHAMPION, CLAIRVOYANT):
            continue
        source = search_source(rules)
        if spec.vector != get(spec.name, rules).vector:  # the name's own values
            source = f"{source}, changed by the name {name!r}"
        values = {p.name: float(v) for p, v in zip(spec.params, spec.vector, strict=True)}
        found[name] = {"source": source, "values": values}
    return found


def make(name: str, rules: Rules | None = None) -> Strategy:
    """A fresh plain-Python instance of a registered strategy (``rules``: as :func:`get`)."""
    return get(name, rules).make()


def split_names(text: str) -> list[str]:
    """A comma-separated list of strategies as names, one per strategy.

    A strategy's parameters are separated by commas too (``linear:w_jack=0.4,w_revolt=2``):
    an item ``key=value`` that follows one with parameters is one more of its parameters,
    since no strategy's name holds an ``=``.
    """
    out: list[str] = []
    for item in (part.strip() for part in text.split(",")):
        if out and "=" in item and ":" not in item and ":" in out[-1]:
            out[-1] += "," + item
        else:
            out.append(item)
    return out


def per_seat(
    names: Sequence[str], seats: int, what: str = "strategies", holders: str = "players"
) -> list[str]:
    """One strategy name per seat from one name for all or exactly one per seat.

    Every name is checked first, so a misspelt one is named rather than miscounted.
    """
    names = [name.strip() for name in names]
    for name in names:
        get(name)
    return one_per_seat(names, seats, what, holders)


def one_per_seat(items: Sequence[T], seats: int, what: str, holders: str) -> list[T]:
    """``items`` (names, specs) as one per seat: one for all, or exactly one per seat;
    else a StrategyError naming ``what`` and its ``holders``."""
    items = list(items)
    if len(items) == 1:
        items *= seats
    if len(items) != seats:
        raise StrategyError(
            f"{len(items)} {what} for {seats} {holders} (allowed: one name for all, "
            f"or exactly {seats} names separated by commas)"
        )
    return items
