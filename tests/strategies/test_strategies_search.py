"""The search player: the same moves on both engines, and deals consistent with what it knows."""

from __future__ import annotations

import numpy as np

from simulator.kernel.knowledge import ALLOWED, H_SIZE, KNOWN, forget, note_exchange
from simulator.kernel.layout import DECK, MAX_PLAYERS, S_ACTIVE, S_N, S_SIZE, rules_array
from simulator.matchloop.api import KernelJob, trace_match
from simulator.reference.match import play_match
from simulator.rules.presets import preset
from strategies import registry
from strategies.adapter import KernelStrategy, hand_mask
from strategies.montecarlo import sample_hands

SEARCH = "montecarlo:samples=3"


def popc(h: np.uint64) -> int:
    return int(h).bit_count()


def count_of(h: np.uint64, rank: int) -> int:
    return popc(np.uint64(int(h) & (0x0001000100010001 << rank)))


def test_search_replays_on_reference_engine_without_exchange() -> None:
    """Without an exchange the search knows only public facts, which the adapter rebuilds
    from an Observation: both engines then draw the same samples and make the same moves.
    (Under out_of_trick with skips an Observation merges "skipped" into "passed", so the
    comparison uses the may_return presets.)"""
    for name in ("spade", "scum"):
        rules = preset(name).with_options(exchange=(), target=0, points={})
        names = [SEARCH, "rules-aware", "lowest", "random"]
        spec = registry.get(SEARCH)
        for match in range(3):
            job = KernelJob.build(rules, names, 2, 2, 200)
            _, trace = trace_match(job, match)
            players = [KernelStrategy(SEARCH, spec.kernel_id, spec.kernel_vector)]
            players += [registry.make(s) for s in names[1:]]
            record = play_match(rules, players, 2, match, rounds=2)
            moves = [
                (rr.seating.index(p) << 8) | (m.count << 4) | (0 if m.is_pass else m.rank)
                for rr in record.rounds
                for p, m in rr.moves
            ]
            assert [t for t in trace.tolist() if t >= 0] == moves, (name, match)


def test_sampled_deals_respect_the_exchange() -> None:
    """The President knows his Scum holds the card he gave back and nothing above the
    weakest card the Scum had to give; every sample keeps that and every card count."""
    rng = np.random.default_rng(0)
    R = rules_array(preset("french"))
    for trial in range(50):
        deck = np.repeat(np.arange(13), 4)
        rng.shuffle(deck)
        H = np.zeros(H_SIZE, dtype=np.uint64)
        forget(H)
        counts = np.zeros((4, 14), dtype=np.int64)
        for i, r in enumerate(deck):
            counts[i % 4, r] += 1
        for p in range(4):
            H[p] = hand_mask(counts[p])
        president, scum = 0, 3
        # the Scum's hand is made to fit: its best card was a 9 (rank 6), given up; he got a K back
        gave_up = np.uint64(hand_mask([0] * 6 + [1] + [0] * 7))
        note_exchange(H, president, scum, gave_up, 6, np.array([10] + [0] * 7), 1)
        S = np.zeros(S_SIZE, dtype=np.int64)
        S[S_N] = 4
        S[S_ACTIVE] = 15
        out = np.zeros(MAX_PLAYERS, dtype=np.uint64)
        rs = np.array([trial, 0, 0], dtype=np.uint64)
        sample_hands(president, S, H, R, np.zeros(14, np.int64), rs, out,
                     np.zeros(14, np.int64), np.zeros(MAX_PLAYERS, np.int64), np.zeros(DECK, np.int64))  # fmt: skip
        assert out[president] == H[president]
        for q in range(4):
            assert popc(out[q]) == popc(H[q]), trial
        for r in range(14):
            held = sum(count_of(out[q], r) for q in range(4))
            assert held == (4 if r < 13 else 0), (trial, r)
        assert count_of(out[scum], 10) >= 1  # the K he was given back
        allowed = int(H[ALLOWED + MAX_PLAYERS * president + scum])
        assert allowed == (1 << 7) - 1
        above = [r for r in range(7, 13) if r != 10 and count_of(out[scum], r)]
        assert above == [], (trial, above)
        assert H[KNOWN + MAX_PLAYERS * scum + president] == gave_up  # the 9 stayed there
