"""The kernel's bit selection: ``nth_bit`` picks ``random``'s play among the legal ones.

It finds the level, the byte and the bit by counts and a table (no loop), so every
position of the hand layout and every rank ``k`` is checked against a plain list of
the set bits.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.kernel.bits import nth_bit


@njit  # not cached: numba would not see a change to the kernel function it calls
def _every_pick(masks):
    """``nth_bit(m, k)`` for each mask and each ``k < popc(m)``, flattened."""
    out = []
    for m in masks:
        k = 0
        x = m
        while x != np.uint64(0):
            out.append(nth_bit(m, k))
            x &= x - np.uint64(1)
            k += 1
    return out


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


def test_nth_bit_is_the_kth_set_bit():
    masks = _layout_masks(3000)
    want = [i for m in masks for i in range(64) if m >> i & 1]
    got = _every_pick(np.array(masks, dtype=np.uint64))
    assert list(got) == want
    assert len(want) > 50_000  # every level and byte of the layout is met many times
