"""Who holds which strategy, which hand and which random stream: duplicate deals, stated once.

A run names one strategy per seat (the *line-up*). Without duplicate deals every match
plays the line-up as given, deals its own cards from the dealer's left as the rules say,
and all its players draw their random choices from the match's one play stream.

With duplicate deals, matches come in *groups* that share their cards, so that the
luck of the deal cancels between strategies:

* **Distinct rotations.** Match j of a group plays the line-up turned by j seats. Only
  the distinct rotations are played: the group size is the line-up's period (ABAB
  turned by two seats is ABAB again, so its group is ABAB, BABA; four different
  strategies give four matches; AAAA one). Over a group every strategy holds every
  seat as often as it appears in the line-up.
* **A fixed frame for the hands.** Every match of a group plays the deals of its first
  match (``deal_source``). Each round's shuffled deck is cut into *base hands* of
  ⌊D/n⌋ cards (card i of the first n·⌊D/n⌋ goes to slot i mod n), and slot k goes to the
  player who started at seat (first dealer + 1 + k) mod n — the round-1 dealer's frame —
  whatever happened since, so seat p receives the same hand in every match of the group
  and a rotation really hands each strategy each hand. The D mod n leftover cards
  (52 mod n, or 54 mod n with jokers) still go one each to the players left of the
  dealer the rules name, as the rule book says; they are the only part of a hand that
  depends on the match's history. Round 1 of a match is dealt exactly as the rules
  say either way (its frame is its dealer's).
* **Common random numbers.** Each seat draws from its own stream, keyed by the group's
  deals and the seat, so the strategy sitting at seat p in any match of a group sees the
  same random numbers (``random``'s choices, ``montecarlo``'s samples, give-backs).

These functions are plain arithmetic that works on Python integers and numpy arrays
alike (the runs, the reports, the tournament), compiled as-is for the kernel by
:mod:`simulator.matchloop.matches` (so this module loads without numba);
:func:`group_size` and :func:`reference_options` are plain Python only.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any, TypeVar

Index = TypeVar("Index")  # an int or an integer numpy array

SHARED_STREAM = -1  # without duplicate deals every player draws from the match's stream


def group_size(lineup: Sequence[object], duplicate: bool) -> int:
    """Matches per duplicate group: the number of distinct rotations of the line-up (its
    period), or 1 without duplicate deals."""
    n = len(lineup)
    if not duplicate:
        return 1
    items = list(lineup)
    return next(p for p in range(1, n + 1) if n % p == 0 and items[p:] + items[:p] == items)


def deal_source(match: Index, group: int) -> Index:
    """The deal group of ``match``: the match whose deals it plays (one per group)."""
    return match // group


def lineup_slot(player: Index, match: Index, players: int, group: int) -> Index:
    """The line-up slot (index into the run's strategies) of ``player`` in ``match``.

    ``player`` is the seat a player holds at the start of the match.
    """
    return (player - match % group) % players


def player_in_slot(slot: Index, match: Index, players: int, group: int) -> Index:
    """The player who holds line-up slot ``slot`` in ``match`` (the inverse of
    :func:`lineup_slot`)."""
    return (slot + match % group) % players


def base_hand_player(slot: Index, first_dealer: Index, players: int) -> Index:
    """Under duplicate deals: the player (starting seat) who receives base hand ``slot``."""
    return (first_dealer + 1 + slot) % players


def stream_of(player: int, duplicate: bool) -> int:
    """The random stream a player draws from: the match's shared stream
    (:data:`SHARED_STREAM`), or under duplicate deals his seat's own (row ``player``)."""
    return player if duplicate else SHARED_STREAM


def reference_options(match: int, group: int, players: int, duplicate: bool) -> dict[str, Any]:
    """The keyword arguments that make the reference engine's ``play_match`` play
    ``match`` as the kernel does under this scheme (deal group, frame, seat streams)."""
    if not duplicate:
        return {}
    return {
        "deal_match": deal_source(match, group),
        "hand_frame": partial(base_hand_player, players=players),
        "seat_streams": True,
    }
