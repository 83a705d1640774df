"""Bit tricks and the counter-based random stream, compiled by numba.

Hands are one ``uint64`` per player: bit ``16*l + r`` is set when the player holds at
least ``l+1`` cards of rank ``r`` (ranks 0..13, levels 0..3). Then the ranks held with at
least ``c`` cards are ``(h >> 16*(c-1)) & RANKS``, the cards held are ``popc(h)``, and the
weakest rank held is ``ctz(h & RANKS)``. ``ctz``/``clz``/``popc`` are LLVM intrinsics,
which compile to single instructions (lookup tables measured slower).

The stream functions mirror :mod:`simulator.reference.rng` exactly; a stream's state lives in a
``uint64[3]`` array ``(state, buffered draw, has buffered draw)`` so that strategies can
draw from it in place.
"""

from __future__ import annotations

import numpy as np
from llvmlite import binding, ir
from numba import njit, types
from numba.core import cgutils
from numba.core import config as numba_config
from numba.extending import intrinsic

from simulator.kernel.config import INLINE, JIT

U0 = np.uint64(0)
U1 = np.uint64(1)
U16 = np.uint64(16)
U32 = np.uint64(32)
M32 = np.uint64(0xFFFFFFFF)
RANKS = np.uint64(0x3FFF)  # ranks 0..13 of one level
PLAIN = np.uint64(0x1FFF)  # ranks 0..12 (3 … 2), without the joker
JOKER_BIT = np.uint64(1 << 13)
FAULT = np.uint64(1 << 63)  # a hand bit no card uses: a user's bad give-back, until his next move
COL = np.uint64(0x0001000100010001)  # the four level bits of rank 0
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
C1 = np.uint64(0xBF58476D1CE4E5B9)
C2 = np.uint64(0x94D049BB133111EB)
C3 = np.uint64(0xD1B54A32D192ED03)
C4 = np.uint64(0x8CB92BA72F3D8DD7)
S27 = np.uint64(27)
S30 = np.uint64(30)
S31 = np.uint64(31)


def _bit_count(emit, doc: str):  # type: ignore[no-untyped-def]
    """An LLVM bit-count instruction as a numba intrinsic ``int64(uint64)``."""

    @intrinsic
    def count(typingctx, x):  # type: ignore[no-untyped-def]
        def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
            return emit(builder, args[0])

        return types.int64(types.uint64), codegen

    count.__doc__ = doc
    return count


_DEFINED_AT_ZERO = ir.Constant(ir.IntType(1), 0)  # the count of a zero input is defined
ctz = _bit_count(
    lambda b, x: b.cttz(x, _DEFINED_AT_ZERO),
    "Count of trailing zero bits (index of the lowest set bit).",
)
clz = _bit_count(
    lambda b, x: b.ctlz(x, _DEFINED_AT_ZERO),
    "Count of leading zero bits (63 - index of the highest set bit).",
)
popc = _bit_count(lambda b, x: b.ctpop(x), "Number of set bits.")


@intrinsic
def pdep(typingctx, src, mask):  # type: ignore[no-untyped-def]
    """BMI2's parallel bit deposit: the low bits of ``src`` moved, in order, to the set
    bits of ``mask``. One instruction, but only on processors that have it (see
    :data:`FAST_PDEP`): elsewhere LLVM cannot compile it."""

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64), ir.IntType(64)])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.x86.bmi.pdep.64")
        return builder.call(fn, args)

    return types.uint64(types.uint64, types.uint64), codegen


# AMD's processors before Zen 3 have PDEP in microcode, tens to hundreds of cycles.
SLOW_PDEP = ("znver1", "znver2", "bdver4")


def fast_pdep() -> bool:
    """Whether numba compiles for this very processor and it has a fast PDEP. A cache
    compiled elsewhere is keyed by its processor, so this value is frozen into code only
    ever run where it held; ``NUMBA_CPU_NAME`` (a portable cache) turns it off."""
    if numba_config.CPU_NAME is not None:
        return False
    features = binding.get_host_cpu_features()
    return bool(features.get("bmi2")) and binding.get_host_cpu_name() not in SLOW_PDEP


FAST_PDEP = fast_pdep()


@njit(**INLINE)
def highest(x):
    """Index of the highest set bit of a non-zero word."""
    return 63 - clz(x)


def _byte_select_table() -> np.ndarray:
    """``NTH_IN_BYTE[b * 8 + k]``: index of the k-th lowest set bit of byte ``b`` (0 if none)."""
    table = np.zeros(256 * 8, dtype=np.int64)
    for b in range(256):
        bits = [i for i in range(8) if b >> i & 1]
        for k, i in enumerate(bits):
            table[b * 8 + k] = i
    return table


NTH_IN_BYTE = _byte_select_table()
M8 = np.uint64(0xFF)
M16 = np.uint64(0xFFFF)


@njit(**INLINE)
def nth_bit(m, k):
    """Index of the k-th (from 0) lowest set bit of ``m``, for ``k < popc(m)`` and ``m`` in
    the hand layout (bits below 64, the k-th within the four 16-bit levels).

    Selects rather than a loop clearing ``k`` bits: ``random`` picks uniformly among its
    plays, and such a loop ended at a turn the processor could not predict (measured: a
    mispredicted loop exit on most of ``random``'s decisions). With a fast PDEP the
    selection is two instructions (french 4 x ``random`` measured 16 % faster than the
    counts and table of :func:`nth_bit_by_counts`).
    """
    if FAST_PDEP:
        return nth_bit_by_pdep(m, k)
    return nth_bit_by_counts(m, k)


@njit(**INLINE)
def nth_bit_by_pdep(m, k):
    """:func:`nth_bit` by PDEP: bit ``k`` deposited on the k-th set bit of ``m``."""
    return ctz(pdep(U1 << np.uint64(k), m))


@njit(**INLINE)
def nth_bit_by_counts(m, k):
    """:func:`nth_bit` on any processor: the level is found from the counts of the levels
    below it, then the byte, then the bit by table."""
    c0 = popc(m & M16)
    c1 = popc(m & (M16 << U16))
    c2 = popc(m & (M16 << U32))
    up1 = k >= c0
    up2 = k >= c0 + c1
    up3 = k >= c0 + c1 + c2
    k -= up1 * c0 + up2 * c1 + up3 * c2
    level = np.uint64(16 * (up1 + up2 + up3))
    lane = (m >> level) & M16
    low = lane & M8
    count_low = popc(low)
    high = k >= count_low
    byte = (lane >> np.uint64(8)) if high else low
    k -= high * count_low
    return np.int64(level) + 8 * high + NTH_IN_BYTE[byte * np.uint64(8) + np.uint64(k)]


NIBBLES = np.uint64(0x11111111111111)  # bit 4r for each rank r: one nibble a rank


@njit(**INLINE)
def nth_card_rank(h, i):
    """The rank of card ``i`` (from 0, ``i < popc(h)``) of hand ``h`` in the canonical
    order of the cards: rank by rank, weakest first.

    ``random`` gives back cards drawn this way. Walking the ranks until ``i`` is passed
    ends at a turn the processor cannot predict; with a fast PDEP the hand is spread to
    one nibble a rank (bit ``4r + l``: more than ``l`` cards of rank ``r``), in which
    card ``i`` is the ``i``-th set bit.
    """
    if FAST_PDEP:
        return nth_card_rank_by_pdep(h, i)
    return nth_card_rank_by_walk(h, i)


@njit(**INLINE)
def nth_card_rank_by_pdep(h, i):
    """:func:`nth_card_rank` by PDEP: the hand spread to one nibble a rank, then its
    ``i``-th set bit (:func:`nth_bit_by_pdep`)."""
    spread = U0
    for level in range(4):
        ranks = (h >> np.uint64(16 * level)) & RANKS
        spread |= pdep(ranks, NIBBLES << np.uint64(level))
    return nth_bit_by_pdep(spread, i) >> 2


@njit(**INLINE)
def nth_card_rank_by_walk(h, i):
    """:func:`nth_card_rank` on any processor: the ranks walked until ``i`` is passed."""
    r = 0
    while True:
        c = count_of(h, r)
        if i < c:
            return r
        i -= c
        r += 1


@njit(**INLINE)
def count_of(h, r):
    """Cards of rank ``r`` in hand ``h``."""
    return popc(h & (COL << np.uint64(r)))


@njit(**INLINE)
def add_card(h, r):
    """Hand ``h`` with one more card of rank ``r`` (sets the next free level bit)."""
    col = COL << np.uint64(r)
    return h | ((h & col) << U16) | (U1 << np.uint64(r))


@njit(**INLINE)
def remove_cards(h, r, c):
    """Hand ``h`` without ``c`` cards of rank ``r`` (clears the top ``c`` level bits)."""
    col = COL << np.uint64(r)
    n = popc(h & col)
    keep = (U1 << np.uint64(16 * (n - c))) - U1
    return h & (~col | keep)


@njit(**INLINE)
def with_count(h, c):
    """Ranks held with at least ``c`` cards (a 14-bit mask)."""
    return (h >> np.uint64(16 * (c - 1))) & RANKS


# ---------------------------------------------------------------- random streams


@njit(**INLINE)
def mix(z):
    """SplitMix64's output function."""
    z = (z ^ (z >> S30)) * C1
    z = (z ^ (z >> S27)) * C2
    return z ^ (z >> S31)


@njit(**JIT)
def seed_key(seed):
    """The run key of a seed (as ``simulator.reference.rng.seed_key``)."""
    return mix(np.uint64(seed) + GOLDEN)


@njit(**JIT)
def stream_init(rs, key, match, purpose):
    """Start stream ``purpose`` of match ``match`` in ``rs``
    (as :func:`simulator.reference.rng.stream_start`)."""
    rs[0] = mix(mix(np.uint64(key) ^ (np.uint64(match) * C3)) ^ (np.uint64(purpose) * C4))
    rs[1] = U0
    rs[2] = U0


@njit(**INLINE)
def draw32(s, buf, have):
    """The next 32-bit draw of a stream held in registers as ``(s, buf, have)`` (the three
    words of ``rs``): returns ``(draw, s, buf, have)``. High half first, then the
    buffered low half. The round loop keeps its stream this way: stored in an array,
    every draw wrote memory that numba must assume aliases the hands."""
    if have != U0:
        return buf, s, buf, U0
    s = s + GOLDEN
    z = mix(s)
    return z >> U32, s, z & M32, U1


@njit(**INLINE)
def scaled(x, n):
    """A 32-bit draw ``x`` mapped to ``[0, n)``."""
    return np.int64((x * np.uint64(n)) >> U32)


@njit(**INLINE)
def next32(rs):
    """The next 32-bit draw of stream ``rs`` (:func:`draw32` on its three words)."""
    x, rs[0], rs[1], rs[2] = draw32(rs[0], rs[1], rs[2])
    return x


@njit(**INLINE)
def below(rs, n):
    """A draw in ``[0, n)``."""
    return scaled(next32(rs), n)
