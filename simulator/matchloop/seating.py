"""Who holds which strategy in which match: the seat rotation of duplicate deals.

A run names one strategy per seat (the *line-up*). Without duplicate deals every match
plays the line-up as given and deals its own cards. With duplicate deals, matches come
in groups of ``group`` (= the number of players) that share the deals of their group's
first match, while the line-up turns one seat per match, so that every strategy holds
every hand from every seat.

These functions are the one statement of that rotation: plain arithmetic that works on
Python integers and numpy arrays alike (the runs and the tournament), compiled as-is for
the kernel by :mod:`simulator.matchloop.matches` (so this module loads without numba).
"""

from __future__ import annotations

from typing import TypeVar

Index = TypeVar("Index")  # an int or an integer numpy array


def group_size(players: int, duplicate: bool) -> int:
    """Matches per duplicate group: the number of players, or 1 without duplicate deals."""
    return players if duplicate else 1


def deal_source(match: Index, group: int) -> Index:
    """The match whose deals ``match`` plays: the first of its duplicate group."""
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
