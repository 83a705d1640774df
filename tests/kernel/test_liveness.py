"""numba's live-variable analysis on bit sets (:mod:`simulator.kernel.liveness`): numba's
result, to the set and the order of the blocks, on random graphs and on a real compile."""

from __future__ import annotations

import random

import numpy as np
import pytest
from numba import njit
from numba.core import analysis
from numba.core.controlflow import CFGraph

from simulator.kernel import liveness
from simulator.kernel.bits import popc
from strategies.hand import groups, outside, unbeatable_groups, unbeatable_plays


def random_graph(rng: random.Random, size: int, unreachable: bool = False):
    """A control-flow graph of ``size`` blocks, each reached from an earlier one, with
    extra edges forward and back (loops), and the blocks' variables used and defined."""
    cfg = CFGraph()
    nodes = list(range(size)) + ([size] if unreachable else [])
    for node in nodes:
        cfg.add_node(node)
    for node in range(1, size):
        cfg.add_edge(rng.randrange(node), node)
    for _ in range(size):
        cfg.add_edge(rng.randrange(size), rng.randrange(size))
    if unreachable:
        cfg.add_edge(size, 0)
    cfg.set_entry_point(0)
    cfg.process()
    names = [f"v{i}" for i in range(3 * size)]
    use = {node: set(rng.sample(names, rng.randrange(6))) for node in nodes}
    defs = {node: set(rng.sample(names, rng.randrange(6))) for node in nodes}
    return cfg, dict.fromkeys(nodes), use, defs


def outcome(function, *args):
    """A function's result, or the type of what it raised."""
    try:
        return function(*args)
    except Exception as error:  # compared, not hidden
        return type(error)


@pytest.mark.parametrize("seed", range(40))
def test_the_live_map_is_numbas_on_random_graphs(seed) -> None:
    rng = random.Random(seed)
    args = random_graph(rng, rng.randrange(1, 60))
    ours, numbas = liveness.compute_live_map(*args), liveness.NUMBA_LIVE_MAP(*args)
    assert ours == numbas and list(ours) == list(numbas)
    assert any(ours.values()) or not any(args[2].values())


def test_a_block_the_graph_dropped_is_left_to_numba() -> None:
    args = random_graph(random.Random(7), 12, unreachable=True)
    assert 12 in args[1] and 12 not in args[0].topo_order()
    assert outcome(liveness.compute_live_map, *args) == outcome(liveness.NUMBA_LIVE_MAP, *args)


@njit  # not cached: compiled by the test, every post-processing pass asks for live maps
def _sure_groups(hands, played):
    total = 0
    for h in hands:
        out = outside(h, played, 2)
        for rev in (False, True):
            total += groups(h) - popc(unbeatable_groups(h, unbeatable_plays(out, rev)))
    return total


def test_a_real_compile_asks_for_live_maps_that_are_numbas(monkeypatch) -> None:
    seen = []

    def checked(cfg, blocks, var_use_map, var_def_map):
        ours = liveness.compute_live_map(cfg, blocks, var_use_map, var_def_map)
        numbas = liveness.NUMBA_LIVE_MAP(cfg, blocks, var_use_map, var_def_map)
        seen.append(ours == numbas and list(ours) == list(numbas))
        return numbas

    liveness.live_maps_on_bit_sets()  # as a first compile would, before the check
    monkeypatch.setattr(analysis, "compute_live_map", checked)
    hands = np.array([0x1F00F3, 0x30000C0C], dtype=np.uint64)
    played = np.zeros(14, dtype=np.int64)
    assert _sure_groups(hands, played) >= 0
    assert len(seen) > 10 and all(seen)
