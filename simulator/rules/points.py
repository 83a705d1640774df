"""Points scored per round by place (the rule book's ``points``): a table of its own, read
by :mod:`simulator.rules.options` and by whatever scores a round."""

from __future__ import annotations

from dataclasses import dataclass

MAX_POINTS_LIST = 8


@dataclass(frozen=True)
class Points:
    """Points scored per round by place.

    ``top[i]`` goes to the (i+1)-th place, ``bottom[-1]`` to the last place,
    ``bottom[-2]`` to the second-to-last, …; a place that gets both adds them.
    """

    top: tuple[int, ...] = ()
    bottom: tuple[int, ...] = ()

    def for_place(self, place: int, players: int) -> int:
        """Points of ``place`` (1 = first) in a round of ``players`` players."""
        total = 0
        if place <= len(self.top):
            total += self.top[place - 1]
        from_last = players - place + 1  # 1 for the last place
        if from_last <= len(self.bottom):
            total += self.bottom[-from_last]
        return total


NO_POINTS = Points()
