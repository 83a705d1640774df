"""The kernel's bit selection: ``nth_bit`` picks ``random``'s play among the legal ones.

It selects by PDEP where the processor has a fast one, else by counts and a table (no
loop); each way, and the one the kernel uses here, is checked for every position of
the hand layout and every rank ``k`` against a plain list of the set bits.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from llvmlite import binding
from numba import njit

from simulator.kernel import bits
from simulator.kernel.bits import (
    nth_bit,
    nth_bit_by_counts,
    nth_bit_by_pdep,
    nth_card_rank,
    nth_card_rank_by_pdep,
    nth_card_rank_by_walk,
)


def _every_pick(select: Callable[[int, int], int]) -> Callable[[np.ndarray], list[int]]:
    """A compiled ``[select(m, k) for each mask m and each k < popc(m)]``, flattened."""

    @njit  # not cached: numba would not see a change to the kernel function it calls
    def picks(masks):
        out = []
        for m in masks:
            k = 0
            x = m
            while x != np.uint64(0):
                out.append(select(m, k))
                x &= x - np.uint64(1)
                k += 1
        return out

    return picks


# PDEP is compiled only where the processor has the instruction (else LLVM cannot)
WAYS = [nth_bit, nth_bit_by_counts] + (
    [nth_bit_by_pdep] if binding.get_host_cpu_features().get("bmi2") else []
)


def _layout_masks(count: int) -> list[int]:
    """Random masks of the hand layout (14 rank bits in each of four 16-bit levels),
    thinned at random so that levels and bytes are often empty, and the extremes."""
    rng = np.random.default_rng(3)
    masks = [1, 1 << 13, 1 << 48, 1 << 61, 0x3FFF, 0x3FFF << 48, 0x3FFF3FFF3FFF3FFF]
    for _ in range(count):
        m = 0
        for level in range(4):
            m |= int(rng.integers(0, 1 << 14)) << (16 * level)
        m &= int(rng.integers(1, 1 << 62)) | int(rng.integers(1, 1 << 62))
        masks.append(m or 1)
    return masks


@pytest.mark.parametrize("select", WAYS, ids=lambda f: f.__name__)
def test_nth_bit_is_the_kth_set_bit(select):
    masks = _layout_masks(3000)
    want = [i for m in masks for i in range(64) if m >> i & 1]
    got = _every_pick(select)(np.array(masks, dtype=np.uint64))
    assert list(got) == want
    assert len(want) > 50_000  # every level and byte of the layout is met many times


def _every_card(rank_of: Callable[[int, int], int]) -> Callable[..., list[int]]:
    """A compiled ``[rank_of(h, i) for each hand h and each of its cards i]``, flattened."""

    @njit  # not cached, as above
    def ranks(hands, counts):
        out = []
        for j in range(hands.shape[0]):
            for i in range(counts[j]):
                out.append(rank_of(hands[j], i))
        return out

    return ranks


CARD_WAYS = [nth_card_rank, nth_card_rank_by_walk] + (
    [nth_card_rank_by_pdep] if binding.get_host_cpu_features().get("bmi2") else []
)


@pytest.mark.parametrize("rank_of", CARD_WAYS, ids=lambda f: f.__name__)
def test_nth_card_rank_is_the_rank_of_the_ith_card(rank_of):
    """Hands of every size, ranks held 0 to 4 times (jokers up to twice), in the kernel's
    layout; card i in canonical order is the i-th of the ranks listed card by card."""
    rng = np.random.default_rng(5)
    hands, counts, want = [], [], []
    for _ in range(2000):
        held = rng.integers(0, 5, 14) * (rng.random(14) < rng.random())
        held[13] = min(held[13], 2)
        held[0] = max(held[0], int(held.sum() == 0))  # never an empty hand
        hands.append(sum(1 << (16 * level + r) for r in range(14) for level in range(held[r])))
        counts.append(int(held.sum()))
        want += [r for r in range(14) for _ in range(held[r])]
    got = _every_card(rank_of)(np.array(hands, dtype=np.uint64), np.array(counts))
    assert list(got) == want
    assert len(want) > 20_000


@pytest.mark.parametrize(
    ("cpu_name", "processor", "bmi2", "fast"),
    [
        (None, "znver5", True, True),
        (None, "skylake", True, True),
        (None, "znver2", True, False),  # PDEP in microcode
        (None, "sandybridge", False, False),  # no BMI2
        ("generic", "znver5", True, False),  # a portable cache: compiled for any processor
    ],
)
def test_pdep_is_used_only_where_it_is_fast_and_compiled_for(
    monkeypatch, cpu_name, processor, bmi2, fast
):
    monkeypatch.setattr(bits.numba_config, "CPU_NAME", cpu_name)
    monkeypatch.setattr(binding, "get_host_cpu_name", lambda: processor)
    monkeypatch.setattr(binding, "get_host_cpu_features", lambda: {"bmi2": bmi2})
    assert bits.fast_pdep() is fast
