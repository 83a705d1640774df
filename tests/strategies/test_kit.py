"""strategies/kit.py: its helpers say what the bit tricks did, and its names are the ones
of their homes (re-exported, never copied)."""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.kernel import bits, layout, legal
from simulator.kernel.layout import S_REV, S_SIZE, S_TOP_COUNT, S_TOP_RANK, rules_array
from simulator.reference import moves
from simulator.reference import round as reference_round
from simulator.rules.presets import preset
from strategies import kit
from strategies.adapter import hand_mask

HAND = (2, 0, 1, 3, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0)  # two 3s, a 5, three 6s, a queen, a 2


@njit(cache=True)
def _walk(h, S, R):
    """Every legal play as (rank, count), visited with first_play / without_play."""
    out = []
    m = kit.legal_plays(h, S, R)
    while m != kit.U0:
        b = kit.first_play(m)
        out.append((kit.play_rank(b), kit.play_count(b)))
        m = kit.without_play(m, b)
    return out


def _state(top_rank: int, top_count: int, rev: int = 0) -> np.ndarray:
    S = np.zeros(S_SIZE, np.int64)
    S[S_TOP_RANK], S[S_TOP_COUNT], S[S_REV] = top_rank, top_count, rev
    return S


def test_walking_the_legal_plays_visits_each_once_fewest_cards_then_weakest():
    h = np.uint64(hand_mask(HAND))
    R = rules_array(preset("french").with_options(players=4))
    # singles from a 5 up (french: an equal rank is legal, equal_rank = "skip")
    assert _walk(h, _state(2, 1), R) == [(2, 1), (3, 1), (9, 1), (12, 1)]
    lead = _walk(h, _state(-1, 0), R)
    assert lead == sorted(set(lead), key=lambda p: (p[1], p[0]))
    assert {(r, c) for r, c in lead} == {(r, c) for r, n in enumerate(HAND) for c in
                                         range(1, n + 1)}  # fmt: skip


def test_hand_helpers_read_the_hand_as_counts():
    h = np.uint64(hand_mask(HAND))
    assert list(kit.rank_counts(h)) == list(HAND)
    H = np.array([h, np.uint64(hand_mask((1,) * 13 + (0,)))], np.uint64)
    assert [kit.cards_held(H, p) for p in (0, 1)] == [sum(HAND), 13]
    assert kit.ranks_with(h, 2) == np.uint64((1 << 0) | (1 << 3))  # pairs of 3s and 6s
    assert kit.leading(_state(-1, 0)) and not kit.leading(_state(4, 2))
    assert kit.reversed_order(_state(-1, 0, rev=1)) and not kit.reversed_order(_state(-1, 0))


def test_the_kit_re_exports_from_each_name_s_one_home():
    homes = {"play_rank": legal, "play_count": legal, "legal_plays": legal, "count_of": bits,
             "S_TOP_COUNT": layout, "NO_ROLE": layout, "Observation": reference_round, "PASS": moves}  # fmt: skip
    for name, home in homes.items():
        assert getattr(kit, name) is getattr(home, name), name
    assert all(hasattr(kit, name) for name in kit.__all__)
