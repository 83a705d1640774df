"""Roles by place and the pairs of the card exchange (docs/rules.md: roles, ``exchange``).

For n players, by place: 1st President, 2nd Vice-President, last Scum, second-to-last
Vice-Scum, everyone else Neutral (with 3 players: President, Neutral, Scum). Role names
are the ``role`` values of the output table; :data:`ROLE_TITLES` are how people read them.
"""

from __future__ import annotations

from collections.abc import Sequence

from simulator.rules.options import Rules

ROLE_NAMES = ("president", "vice_president", "neutral", "vice_scum", "scum")
PREV_ROLE_NAMES = ("", *ROLE_NAMES)  # ``prev_role``: "" in a match's first round
ROLE_TITLES = {
    "president": "President",
    "vice_president": "Vice-President",
    "neutral": "Neutral",
    "vice_scum": "Vice-Scum",
    "scum": "Scum",
}


def role_of(place: int, players: int) -> str:
    """The role of a place: 1st President, 2nd Vice-President, last Scum, …"""
    if place == 1:
        return "president"
    if place == players:
        return "scum"
    if players >= 4 and place == 2:
        return "vice_president"
    if players >= 4 and place == players - 1:
        return "vice_scum"
    return "neutral"


def president_seat(roles: Sequence[str]) -> int:
    """The seat whose previous role (``roles``, by seat) is President, or -1: a match's
    first round has no roles."""
    return roles.index("president") if "president" in roles else -1


def exchange_pairs(rules: Rules) -> list[tuple[int, int]]:
    """``(i, k)`` for each pair of the exchange that takes part: the i-th best and the i-th
    worst player of the previous round exchange k cards (``2·i ≤ n``; a 0 skips the pair)."""
    n = rules.players
    return [(i, k) for i, k in enumerate(rules.exchange, start=1) if 2 * i <= n and k > 0]
