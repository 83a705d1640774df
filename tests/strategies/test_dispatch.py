"""Every declared built-in reaches its own function through the kernel's dispatch, and an
id the dispatch has no branch for is refused rather than played as another strategy.

A heuristic declared in ``strategies/specs.py`` but missing from ``policies.choose`` used
to fall through to ``rules-aware`` on both engines (the reference engine calls the same
compiled dispatch), so the twin test passed. Here the dispatch functions run as Python
with each strategy's function replaced by a recorder: every id of a tier must reach the
function named after the strategy (``keep-sets`` → ``keep_sets_choice`` or
``keep_sets_move``), and an undeclared id must raise; then the compiled entries the
engines use refuse it too.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from numba.core.dispatcher import Dispatcher

from simulator.matchloop.api import KernelJob, run_matches
from simulator.reference.rng import Stream
from simulator.reference.round import Round
from simulator.rules.options import Rules
from strategies import dispatch, policies, specs
from strategies.adapter import KernelStrategy, stream_array
from strategies.dispatch import REFERENCE_IDS, TIERS

GHOST = max(b.kernel_id for b in specs.BUILT_INS) + 1  # the next free id: declared by nobody
NAMES = {b.kernel_id: b.name for b in specs.BUILT_INS}
MODULES = (policies, dispatch)  # where the dispatch functions find the strategies' functions


def own_functions(sid: int) -> set[str]:
    """The names a built-in's own function may have (docs/architecture.md's recipe)."""
    stem = NAMES[sid].replace("-", "_")
    return {f"{stem}_choice", f"{stem}_move"}


def position() -> tuple:
    """A first lead of the default rules as the kernel's arguments (the reference
    engine's own arrays: ``KernelStrategy.arrays``)."""
    hands = [[1] * 13] * 4  # one card of each rank in each hand
    obs = Round(Rules(), hands, 0).observation()
    probe = KernelStrategy("probe", specs.LOWEST, ())
    return (obs.seat, *probe.arrays(obs), stream_array(Stream(1)), probe.params)


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The dispatch functions as their Python bodies, and every compiled function they
    call replaced: a strategy's own function by a recorder (a pass), any other (the legal
    plays, a hand's counts) by a zero, so only the dispatch's branches are at work."""
    calls: list[str] = []

    def recorder(name: str) -> Callable[..., tuple[int, int]]:
        def record(*args: object) -> tuple[int, int]:
            calls.append(name)
            return 0, 0

        return record

    bodies = {name: getattr(policies, name).py_func for name in ("choose", "decide_basic")}
    for module in MODULES:
        for name, value in vars(module).copy().items():
            if not isinstance(value, Dispatcher):
                continue
            if name in bodies:
                monkeypatch.setattr(module, name, bodies[name])
            elif name.endswith(("_choice", "_move")):
                monkeypatch.setattr(module, name, recorder(name))
            else:
                monkeypatch.setattr(module, name, lambda *args: np.uint64(0))
    return calls


def entries() -> list[tuple[str, Callable[..., tuple[int, int]], frozenset[int]]]:
    """Each tier's entry points and the ids each must reach: one decision at a time every
    id of the tier, and the match loop's every id but those it moves for itself."""
    out = []
    for tier in TIERS:
        out.append((f"{tier.name}.decide_once", tier.decide_once, tier.sids))
        if tier.sids != REFERENCE_IDS:  # the reference tier's loop never calls its decide
            out.append((f"{tier.name}.decide", tier.decide, tier.sids - REFERENCE_IDS))
    return out


ENTRIES = entries()


@pytest.mark.parametrize(("label", "entry", "sids"), ENTRIES, ids=[e[0] for e in ENTRIES])
def test_each_declared_id_reaches_its_own_function(label, entry, sids, recorded) -> None:
    args = position()
    for sid in sorted(sids):
        recorded.clear()
        entry.py_func(sid, *args)
        assert len(recorded) == 1 and recorded[0] in own_functions(sid), (label, NAMES[sid])


@pytest.mark.parametrize(("label", "entry", "sids"), ENTRIES, ids=[e[0] for e in ENTRIES])
def test_an_undeclared_id_is_refused(label, entry, sids, recorded) -> None:
    args = position()
    for sid in (GHOST, specs.PLUGIN_BASE - 1):
        with pytest.raises(ValueError, match=policies.UNDISPATCHED):
            entry.py_func(sid, *args)
    assert not recorded, label


def test_every_built_in_is_in_a_tier_with_its_own_function() -> None:
    """The tiers hold every declared id, and each has one function of its own."""
    assert set(NAMES) == TIERS[-1].sids
    for sid in NAMES:
        found = {n for m in MODULES for n in dir(m)} & own_functions(sid)
        assert len(found) == 1, NAMES[sid]


def test_the_compiled_dispatch_refuses_an_undeclared_id() -> None:
    """On the reference engine (the heuristics' one-decision entry, which a heuristic's
    ``KernelStrategy`` calls) and in the match loop alike."""
    tier = dispatch.tier_of(specs.HEURISTIC_IDS)
    with pytest.raises(ValueError, match=policies.UNDISPATCHED):
        tier.decide_once(GHOST, *position())
    job = KernelJob.build(Rules(), ["rules-aware"] * 4, 1, 1, 20)
    assert len(run_matches(job, 0, 1, 1)) == 1
    job.sids[2] = GHOST
    with pytest.raises(ValueError, match=policies.UNDISPATCHED):
        run_matches(job, 0, 1, 1)
