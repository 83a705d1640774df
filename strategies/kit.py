"""The kit for writing a strategy of your own: one import, every name documented.

``from strategies.kit import *`` gives what a strategy file needs (docs/strategies.md
walks through one). Nothing is declared twice: the constants and kernel functions are
re-exported from their one home (:mod:`simulator.kernel.bits`, :mod:`simulator.kernel.legal`,
:mod:`simulator.kernel.layout`, :mod:`simulator.rules.cards`,
:mod:`simulator.reference.moves`); the few helpers defined here only name what strategies
otherwise wrote as bit tricks.

**A numba strategy** is ``@njit(cache=True) def NAME(pos, S, H, R, played, roles, rs,
params)`` returning ``(rank, count)``, ``(0, 0)`` to pass. Its arguments:

* ``pos``: its own position at the table (0 … players - 1).
* ``S``: the state of the round, an ``int64`` array read at the ``S_*`` slots:
  :data:`S_TOP_RANK` and :data:`S_TOP_COUNT` the combination to beat (count 0: it
  leads, see :func:`leading`), :data:`S_REV` the order in force (see :func:`reversed_order`),
  :data:`S_OWNER` who laid the top, :data:`S_ACTIVE` a bit per position still holding
  cards, :data:`S_TRICKS`, :data:`S_PLAYS`, :data:`S_PASSES` counts so far.
* ``H``: every hand, one ``uint64`` per position (read only your own, ``H[pos]``, and
  the others' card counts, :func:`cards_held`). A hand's layout: bit ``16*l + r`` is set
  when it holds at least ``l + 1`` cards of rank ``r``; use :func:`count_of` and
  :func:`ranks_with` rather than the bits.
* ``R``: the rules, an ``int64`` array read at the ``R_*`` slots (:data:`R_N` players,
  :data:`R_JOKERS`, :data:`R_REVOL` …); :func:`legal_plays` reads it for you.
* ``played``: 14 counts, the cards of each rank played this round (public).
* ``roles``: each position's role in the previous round, an index into
  :data:`ROLE_NAMES` (``0`` president … ``4`` scum), :data:`NO_ROLE` in a match's first
  round.
* ``rs``: its random stream; draw with :func:`below` (``below(rs, n)`` is in
  ``[0, n)``), never with ``np.random``, so that every run can be repeated.
* ``params``: the built-in strategies' parameter rows, one per position; a strategy
  from a file reads none.

Ranks are indices 0 … 13: 3, 4, … K, A, 2 (:data:`TWO` is 12) and the joker
(:data:`JOKER`, 13); :data:`RANK_NAMES` names them. The legal plays come as a mask
(:func:`legal_plays`): each set bit ``b`` is one play, of :func:`play_rank` ``(b)``
cards :func:`play_count` ``(b)``; walk them weakest-first, fewest cards first, with
:func:`first_play` and :func:`without_play`. An optional ``NAME_give_back(h, k, rs,
params, out)`` writes the ranks of the ``k`` cards it gives back in the exchange into
``out`` (:func:`remove_cards` takes one from ``h``); it also chooses the cards handed
over after its own 7s or 10s (``seven_passes``, ``ten_discards``), from the hand left.

**Suits.** Under the rules that read suits (``suit_lock``, ``spade_three_return``:
docs/rules.md, "Cards with suits") :func:`legal_plays` gives only the plays your suits
allow, and the cards a play lays are the ones a rule imposes (the locked suits, the 3
of spades on a lone joker), else the lowest suits of the rank: a strategy written for
ranks plays these rules as it is. To read the suits: ``H[CARDS + pos]`` is your hand as
a card mask (bit ``4 × rank + suit``, suits clubs, diamonds, hearts, spades = 0 … 3;
:func:`suits_of_rank` gives a rank's suits as 4 bits), :data:`S_TOP_SUITS` the top's
suits and :data:`S_LOCK` the suits the trick is locked to (0: none). The others' card
masks are not yours to read. To choose the cards of your play (which two of your three
7s, and so whether you lock the trick), call :func:`pick_cards` ``(S, cards)`` with their
card mask before returning the play: they are laid if they are cards of the play that
you hold and the rules allow (under a lock, the locked suits), else the run stops with
a line naming your strategy and the cards; :func:`locking_cards` ``(S, H[CARDS + pos],
rank, count)`` gives the cards with which a play locks the trick (0: it cannot). Under
rules without suits the cards chosen are ignored.

**A plain-Python strategy** (the reference engine, ``--engine python``) is a class with
``name``, ``choose(obs, rng)`` returning one of ``obs.legal`` (a :class:`Move`, or
:data:`PASS`) and ``give_back(hand, k, rng)`` returning ``k`` ranks (the exchange, and
after its 7s or 10s; an optional ``hand_over(hand, k, rng, ask)`` is asked for those
instead, ``ask.hands_over`` saying ``"give"`` or ``"discard"``); ``obs`` is an
:class:`Observation`: ``hand`` (14 counts), ``top`` (a :class:`Top` with ``rank`` and
``count``, None when it leads), ``legal``, ``cards_left`` and ``passed`` by seat,
``played``, ``reversed``, ``roles`` (by seat, empty in a match's first round),
``skipped_seats`` (the seats the top on the table skipped, in turn: they did not pass)
and ``rules`` (under the rules that read suits also ``cards``, its card ids,
``top_suits``, ``lock`` and ``unseen``, the others' cards taken together); ``rng`` is a :class:`Stream` (``rng.below(n)``). To
choose the cards of a play under those rules, return ``Named(move, card_ids)`` (a
:class:`Named`): checked as a numba strategy's chosen cards are, ignored under rules
without suits. Under ``sequences``, ``obs.legal`` holds the sequences too, each a
:class:`Run` (``low``, ``length``, ``suit``; ``obs.top.run`` when one is on the table),
which a strategy lays by returning it; a numba strategy's moves are a rank and a count:
it passes on a sequence without being asked.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.kernel.bits import (
    RANKS,
    U0,
    below,
    count_of,
    ctz,
    popc,
    remove_cards,
)
from simulator.kernel.bits import with_count as ranks_with
from simulator.kernel.config import INLINE
from simulator.kernel.knowledge import CARDS
from simulator.kernel.layout import (
    NO_ROLE,
    R_JOKERS,
    R_N,
    R_REVOL,
    S_ACTIVE,
    S_LOCK,
    S_OWNER,
    S_PASSES,
    S_PLAYS,
    S_REV,
    S_TOP_COUNT,
    S_TOP_RANK,
    S_TOP_SUITS,
    S_TRICKS,
)
from simulator.kernel.legal import legal_plays, play_count, play_rank, strength, weakest_rank
from simulator.kernel.suits import locking_cards, pick_cards, suits_of_rank
from simulator.reference.moves import PASS, Move, Named, Run, Top
from simulator.reference.rng import Stream
from simulator.reference.round import Observation
from simulator.rules.cards import ACE, JOKER, NUM_RANKS, RANK_NAMES, TWO
from simulator.rules.roles import ROLE_NAMES

__all__ = [
    "ACE", "CARDS", "JOKER", "NO_ROLE", "NUM_RANKS", "PASS", "RANKS", "RANK_NAMES",
    "ROLE_NAMES", "R_JOKERS", "R_N", "R_REVOL", "S_ACTIVE", "S_LOCK", "S_OWNER", "S_PASSES",
    "S_PLAYS", "S_REV", "S_TOP_COUNT", "S_TOP_RANK", "S_TOP_SUITS", "S_TRICKS", "TWO", "U0",
    "Move", "Named", "Observation", "Run", "Stream",
    "Top", "below", "cards_held", "count_of", "first_play", "leading", "legal_plays", "locking_cards", "njit",
    "np", "pick_cards", "play_count", "play_rank", "rank_counts", "ranks_with", "remove_cards",
    "reversed_order", "strength", "suits_of_rank", "weakest_rank", "without_play",
]  # fmt: skip


@njit(**INLINE)
def leading(S):  # type: ignore[no-untyped-def]
    """Whether the player to move leads (nothing to beat): any play of its hand is legal."""
    return S[S_TOP_COUNT] == 0


@njit(**INLINE)
def reversed_order(S):  # type: ignore[no-untyped-def]
    """Whether the rank order in force is reversed (a revolution, a jack-back): then the
    3 beats the 4 … and the 2 is weakest but the joker. :func:`strength` ``(r, rev)``
    orders ranks under either order (higher is stronger)."""
    return S[S_REV] != 0


@njit(**INLINE)
def cards_held(H, p):  # type: ignore[no-untyped-def]
    """The number of cards position ``p`` still holds (public: everyone sees it)."""
    return popc(H[p])


@njit(**INLINE)
def first_play(m):  # type: ignore[no-untyped-def]
    """The first play of a non-empty plays mask: fewest cards, then the weakest rank index
    (the canonical order of the engines); its bit, for :func:`play_rank` and
    :func:`play_count`."""
    return ctz(m)


@njit(**INLINE)
def without_play(m, b):  # type: ignore[no-untyped-def]
    """The plays mask ``m`` without the play at bit ``b``: ``while m: b = first_play(m);
    …; m = without_play(m, b)`` visits every legal play once."""
    return m & ~(np.uint64(1) << np.uint64(b))


@njit(cache=True)
def rank_counts(h):  # type: ignore[no-untyped-def]
    """The hand's 14 card counts by rank (an array: allocates, so keep it out of hot loops;
    :func:`count_of` reads one rank)."""
    out = np.zeros(NUM_RANKS, np.int64)
    for r in range(NUM_RANKS):
        out[r] = count_of(h, r)
    return out
