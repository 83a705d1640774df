"""Rounds of one boolean table rule on both engines, in step, with ``linear`` and ``rules-aware``.

Run by ``tests/rules/test_rule_recipe.py`` in a copy of the package to which the recipe
of docs/architecture.md added the rule: ``python recipe_play.py KEY ROUNDS``, the copy
first on ``PYTHONPATH``. Each round is dealt at random (one seed per round) and played
move by move on the reference engine (:class:`~simulator.reference.round.Round`, each
strategy reading its :class:`~simulator.reference.round.Observation` through the
adapter, as the reference engine plays kernel strategies) and on the kernel's state
(:func:`~simulator.kernel.step.step_trick_rules`, each strategy reading the kernel's
own arrays), the same compiled strategy functions on both; both strategies read the
table rules through ``kernel/trick.py``, which the recipe patches. The skips the state
records are checked as a strategy reads them (:func:`skipped_on_top`, which ``champion``
reads): the kernel's against the reference round's, and the adapter's (the reference
engine's side) against the kernel's, so no search player is compiled in the copy. It
stops at the first disagreement of a move, a skip record or the places, and prints a
JSON summary.
"""

from __future__ import annotations

import json
import random
import sys

import numpy as np

from simulator.kernel.bits import seed_key, stream_init
from simulator.kernel.knowledge import H_SIZE, forget
from simulator.kernel.layout import (
    MAX_PLAYERS,
    NO_ROLE,
    S_SIZE,
    S_SKIP_BY,
    S_SKIPS,
    S_TURN,
    flag_code,
    rules_array,
)
from simulator.kernel.step import (
    load_state,
    rule_flags,
    skipped_on_top,
    start_round,
    step_trick_rules,
    store_state,
    trick_rule_flags,
)
from simulator.reference.round import PASS, Move, Round
from simulator.rules.cards import NUM_RANKS
from simulator.rules.options import Rules
from strategies.adapter import KernelStrategy, hand_mask
from strategies.linear import linear_move
from strategies.registry import get
from strategies.rules_aware import rules_aware_play

SEATS = ("linear", "rules-aware", "linear", "rules-aware")


def move_of(name, pos, arrays, rs, params):
    """The strategy's move on the kernel arrays ``(S, H, R, played, roles)``."""
    S, H, R, played, _ = arrays
    if name == "linear":
        return tuple(int(x) for x in linear_move(pos, S, H, R, played, rs, params))
    return tuple(int(x) for x in rules_aware_play(pos, S, H, R, played, params))


def skip_record(S):
    """The skips of the top as a strategy reads them: the seats, and the rule (0: none)."""
    skipped = int(skipped_on_top.py_func(S))
    return skipped, int(S[S_SKIP_BY]) if skipped else 0


def play(rules, seed, out):
    """One round on both engines; counts what happened into ``out``. False at the first
    disagreement (``out["disagreement"]`` says where)."""
    n = len(SEATS)
    deck = [rank for rank in range(NUM_RANKS - 1) for _ in range(4)]
    random.Random(seed).shuffle(deck)
    hands = [[deck[s::n].count(rank) for rank in range(NUM_RANKS)] for s in range(n)]
    adapters = [KernelStrategy(name, get(name, rules).kernel_id, get(name, rules).kernel_vector)
                for name in SEATS]  # fmt: skip
    rnd = Round(rules, hands, leader=seed % n)
    R = rules_array(rules)
    S = np.zeros(S_SIZE, np.int64)
    H = np.zeros(H_SIZE, np.uint64)
    forget(H)
    for s in range(n):
        H[s] = np.uint64(hand_mask(hands[s]))
    played = np.zeros(NUM_RANKS, np.int64)
    places = np.zeros(MAX_PLAYERS, np.int64)
    roles = np.full(MAX_PLAYERS, NO_ROLE, np.int64)
    start_round(S, H, n, rnd.turn, played, places, -1)
    fl, trick_rules = rule_flags.py_func(R), trick_rule_flags.py_func(R)
    rs_ref = np.zeros(3, np.uint64)
    stream_init(rs_ref, seed_key(np.uint64(seed)), 0, np.uint64(0))
    rs_kernel = rs_ref.copy()
    while not rnd.over:
        pos = rnd.turn
        where = f"seed {seed}, move {rnd.plays + rnd.passes}, seat {pos}"
        seen, skips = adapters[pos].arrays(rnd.observation()), skip_record(S)
        if skip_record(seen[0]) != skips:
            out["disagreement"] = f"{where}: the adapter's skip record differs"
            return False
        out["skips_seen"] += skips[0] != 0  # a strategy to move reads a skip
        reference = move_of(SEATS[pos], pos, seen, rs_ref, adapters[pos].params)
        kernel = move_of(SEATS[pos], pos, (S, H, R, played, roles), rs_kernel,
                         adapters[pos].params)  # fmt: skip
        if S[S_TURN] != pos or reference != kernel:
            out["disagreement"] = f"{where}: reference {reference}, kernel {kernel}"
            return False
        r, c = kernel
        rnd.apply(PASS if c == 0 else Move(r, c))
        st = step_trick_rules(load_state.py_func(S), fl, trick_rules, pos, r, c, H, played,
                              places, S)  # fmt: skip
        store_state.py_func(S, st)
        skipped = sum(1 << s for s in rnd.skipped_seats)  # the seats the top skipped, as a mask
        if skipped_on_top.py_func(S) != skipped or S[S_SKIPS] != rnd.skips:
            out["disagreement"] = f"{where}: the skip recorded differs"
            return False
        if skipped:
            out["skips"] += 1
            out["skipped_by"] = [rnd.skipped_by, int(S[S_SKIP_BY]) == flag_code(rnd.skipped_by)]
        out["moves"] += 1
    if [int(p) for p in places[:n]] != rnd.places:
        out["disagreement"] = f"seed {seed}: places differ"
        return False
    return True


def main() -> None:
    key, rounds = sys.argv[1], int(sys.argv[2])
    rules = Rules().with_options(**{key: True})
    out = {"moves": 0, "skips": 0, "skips_seen": 0, "skipped_by": None, "disagreement": ""}
    for seed in range(rounds):
        if not play(rules, seed, out):
            break
    print(json.dumps(out))


if __name__ == "__main__":
    main()
