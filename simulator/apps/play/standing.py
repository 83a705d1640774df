"""Terminal play: the match standing after each round and at the end, as numbers
(:mod:`simulator.apps.play.screen` draws them: ``round_table``, ``final_lines``).

Under rules with points the standing is the points total. Rules without points (french,
regles-jeu) score nothing, so a total would read "+0" every round and every match would
end "tied at the top": there the standing is by places and roles instead, the mean place
so far (lower is better) and the Presidencies (rounds finished first), which is also how
the winner is named.
"""

from __future__ import annotations

from collections.abc import Sequence

from simulator.reference.match import leader_alone
from simulator.rules.options import Rules


def ordinal(place: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th`` … (places are 1 to 8)."""
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(place, "th")
    return f"{place}{suffix}"


def rounds_text(count: int) -> str:
    return f"{count} round{'s' if count != 1 else ''}"


def scored(rules: Rules) -> bool:
    """Whether the rules give points for any place (else the standing is by places)."""
    return any(rules.points.top) or any(rules.points.bottom)


def mean_place(places: Sequence[Sequence[int]], player: int) -> float:
    """The player's mean place over the rounds finished (``places[round][player]``)."""
    return sum(p[player] for p in places) / len(places)


def presidencies(places: Sequence[Sequence[int]], player: int) -> int:
    """Rounds the player finished first."""
    return sum(p[player] == 1 for p in places)


def by_places(places: Sequence[Sequence[int]], player: int) -> tuple[int, int]:
    """Sort key of the standing without points: place sum (mean place), then fewer
    Presidencies ranks lower."""
    return sum(p[player] for p in places), -presidencies(places, player)


def leader(rules: Rules, places: Sequence[Sequence[int]], totals: Sequence[int]) -> int:
    """The player ahead alone after the rounds finished, or -1 (a tie, or no round yet):
    the best total under points, else the best mean place (Presidencies break a tie)."""
    if not places:
        return -1
    if scored(rules):
        return leader_alone(totals)
    keys = [by_places(places, p) for p in range(len(totals))]
    best = min(keys)
    return keys.index(best) if keys.count(best) == 1 else -1
