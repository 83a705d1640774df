"""Terminal play: the match standing after each round and at the end.

Under rules with points the standing is the points total. Rules without points (french,
regles-jeu) score nothing, so a total would read "+0" every round and every match would
end "tied at the top": there the standing is by places and roles instead, the mean place
so far (lower is better) and the Presidencies (rounds finished first), which is also how
the winner is named.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from simulator.reference.match import RoundRecord, leader_alone
from simulator.rules.options import Rules
from simulator.rules.roles import ROLE_TITLES, role_of

if TYPE_CHECKING:
    from simulator.apps.play.screen import PlayResult, Table


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


def round_table(table: Table, record: RoundRecord) -> list[str]:
    """The round's places and roles with the standing so far, one aligned line a player."""
    n = table.rules.players
    width = table.name_width
    if scored(table.rules):
        head = f"{'points':>6}  {'total':>5}"
    else:
        head = f"{'Presidencies':>12}  {'mean place':>10}"
    lines = [f"  {'place':<5}  {'player':<{width}} {'role':<15} {head}"]
    for player in sorted(range(n), key=lambda p: record.places[p]):
        place = record.places[player]
        role = ROLE_TITLES[role_of(place, n)]
        if scored(table.rules):
            standing = f"{record.points[player]:>+6}  {record.totals[player]:>5}"
        else:
            standing = (
                f"{presidencies(table.places, player):>12}  "
                f"{mean_place(table.places, player):>10.2f}"
            )
        lines.append(f"  {ordinal(place):<5}  {table.padded_label(player)} {role:<15} {standing}")
    return lines


def final_lines(table: Table, result: PlayResult) -> list[str]:
    """The score at the end of the match, or so far when the person quit."""
    paint = table.console.palette.paint
    rounds = rounds_text(result.rounds)
    title = f"You quit after {rounds}" if result.quit else f"Match over after {rounds}"
    lines = ["", paint(f"=== {title} ===", "bold")]
    n = len(result.totals)
    if scored(table.rules):
        lines.append("Score so far:" if result.quit else "Score:")
        order = sorted(range(n), key=lambda p: (-result.totals[p], p))
        lines += [f"  {table.label(p)}: {result.totals[p]}" for p in order]
    elif result.rounds:
        lines.append(("Standing so far" if result.quit else "Standing") + " (by mean place):")
        order = sorted(range(n), key=lambda p: (by_places(result.places, p), p))
        for p in order:
            times = presidencies(result.places, p)
            lines.append(
                f"  {table.padded_label(p)}  mean place {mean_place(result.places, p):.2f}, "
                f"President {times} time{'s' if times != 1 else ''}"
            )
    if result.rounds == 0:
        lines.append("No round was finished.")
    elif result.winner >= 0:
        verb = "leads" if result.quit else "wins"
        why = "" if scored(table.rules) else " (best mean place)"
        lines.append(f"{table.label(result.winner)} {verb}{why}.")
    else:
        lines.append("Tied at the top.")
    return lines
