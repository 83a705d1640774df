"""Counter-based random streams, identical in plain Python and in the numba kernel.

Every match draws from streams addressed by ``(seed, match, purpose)``, so that any
match can be replayed alone and results do not depend on threads, chunks or machines:

* purpose 0 — the play stream of the match: strategies' random choices (``random``'s
  moves and give-backs, search players' samples);
* purpose ``r + 1`` — the deal stream of round ``r``: the first dealer (round 0) and
  the shuffle. Deals therefore do not depend on how the strategies played, which is
  what common random numbers and duplicate deals need;
* purpose ``SEAT_STREAMS + p`` of a duplicate group's deal match — seat p's own play
  stream under duplicate deals (every match of the group draws the same numbers at
  seat p: common random numbers for the strategies, see
  :mod:`simulator.matchloop.seating`).

A stream is SplitMix64 started from ``mix(mix(key ^ match*C3) ^ purpose*C4)`` with
``key = mix(seed + GOLDEN)``. Each 64-bit output gives two 32-bit draws (high half
first); a draw in ``[0, n)`` is ``(r32 * n) >> 32`` (bias at most n / 2**32).
"""

from __future__ import annotations

M64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
C1 = 0xBF58476D1CE4E5B9
C2 = 0x94D049BB133111EB
C3 = 0xD1B54A32D192ED03
C4 = 0x8CB92BA72F3D8DD7
PLAY_STREAM = 0
SEAT_STREAMS = 1 << 63  # far above any round's purpose


def mix(z: int) -> int:
    """SplitMix64's output function (a bijection of 64-bit integers)."""
    z = ((z ^ (z >> 30)) * C1) & M64
    z = ((z ^ (z >> 27)) * C2) & M64
    return z ^ (z >> 31)


def seed_key(seed: int) -> int:
    """The run key of a user seed (any integer, reduced modulo 2**64)."""
    return mix((seed + GOLDEN) & M64)


def stream_start(key: int, match: int, purpose: int) -> int:
    """The starting state of stream ``purpose`` of match ``match``."""
    return mix(mix(key ^ ((match * C3) & M64)) ^ ((purpose * C4) & M64))


class Stream:
    """One SplitMix64 stream with the two-draws-per-output convention of the kernel."""

    __slots__ = ("buf", "have", "state")

    def __init__(self, state: int) -> None:
        self.state = state
        self.buf = 0
        self.have = False

    @classmethod
    def of(cls, seed: int, match: int, purpose: int) -> Stream:
        """The stream ``purpose`` of match ``match`` of a run seeded with ``seed``."""
        return cls(stream_start(seed_key(seed), match, purpose))

    @classmethod
    def of_seat(cls, seed: int, deal_match: int, seat: int) -> Stream:
        """Seat ``seat``'s own play stream in the duplicate group dealt as ``deal_match``."""
        return cls.of(seed, deal_match, SEAT_STREAMS + seat)

    def next32(self) -> int:
        """The next 32-bit draw."""
        if self.have:
            self.have = False
            return self.buf
        self.state = (self.state + GOLDEN) & M64
        z = mix(self.state)
        self.buf = z & 0xFFFFFFFF
        self.have = True
        return z >> 32

    def below(self, n: int) -> int:
        """A draw in ``[0, n)``."""
        return (self.next32() * n) >> 32
