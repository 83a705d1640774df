"""A tip in words a player can follow at the table, without a feature name.

Each thing a tip reads (:data:`strategies.advice.VIEW`) has its phrase here, by name; a
count reads "4 or fewer", "at least 5", "3 to 6"; a strength names the rank it stands
for in the normal order ("a 10 or weaker"): under a reversed order strengths turn with
it, which the page says once.
"""

from __future__ import annotations

from collections.abc import Callable

from simulator.rules.cards import RANK_NAMES
from simulator.runs.advice.learn import Condition, Tip
from strategies.advice import NOBODY, PLAYS

PLAY_WORDS = dict(PLAYS)
SIZES = ("", "singles", "pairs", "threes", "fours")


def counted(lo: float, hi: float, unit: str = "") -> str:
    """A whole-number range in words: ``4 or fewer``, ``at least 5``, ``3 to 6``."""
    lo_i, hi_i = int(max(lo, 0)), int(hi)
    unit = f" {unit}" if unit else ""
    if hi >= NOBODY:
        return f"at least {lo_i}{unit}" if lo_i > 0 else f"any number of{unit}"
    if lo_i <= 0:
        return f"no{unit or ' cards'}" if hi_i <= 0 else f"{hi_i}{unit} or fewer"
    if lo_i == hi_i:
        return f"exactly {lo_i}{unit}"
    return f"{lo_i} to {hi_i}{unit}"


def rank_at(level: float) -> str:
    """The rank of a strength level (1: the weakest) in the normal order, with its article:
    ``a 10``, ``an A``, ``an 8``."""
    name = RANK_NAMES[min(int(level), len(RANK_NAMES)) - 1]
    return f"an {name}" if name in ("A", "8") else f"a {name}"


def ranked(lo: float, hi: float) -> str:
    """A range of strength levels as ranks: ``a 10 or weaker``, ``an A or stronger``."""
    top = len(RANK_NAMES)
    if lo <= 1 and hi >= top:
        return "any card"
    if lo <= 1:
        return f"{rank_at(hi)} or weaker"
    if hi >= top:
        return f"{rank_at(lo)} or stronger"
    if int(lo) == int(hi):
        return rank_at(lo)
    return f"from {rank_at(lo)} to {rank_at(hi)}"


def _flag(yes: str, no: str) -> Callable[[float, float], str]:
    return lambda lo, hi: yes if lo >= 1 else no


def _strength(
    what: str, none: str, verb: str = "is", rare: bool = False
) -> Callable[[float, float], str]:
    """A strength's phrase; ``none`` says its value 0 (no such card), left out of a range
    when that never happens at a decision (``rare``: a player to move holds a card)."""

    def say(lo: float, hi: float) -> str:
        if hi < 1:
            return none
        text = f"{what} {verb} {ranked(max(lo, 1), hi)}"
        return text if lo >= 1 or rare else f"{none}, or {text}"

    return say


ROLE_WORDS = ("President", "Vice-President", "Neutral", "Vice-Scum", "Scum")


def _roles(lo: float, hi: float) -> str:
    """Roles 1 … 5 (0: a match's first round, before any role)."""
    last = int(min(hi, len(ROLE_WORDS)))
    first = int(min(max(lo, 0), last))
    named = [ROLE_WORDS[i - 1] for i in range(max(first, 1), last + 1)]
    said = (
        "you are " + (", ".join(named[:-1]) + " or " + named[-1] if len(named) > 1 else named[0])
        if named
        else ""
    )
    if first == 0:
        return "it is the match's first round" + (f", or {said}" if said else "")
    return said


def _size(lo: float, hi: float) -> str:
    if hi < 1:
        return "you lead"
    kinds = [SIZES[k] for k in range(int(max(lo, 1)), int(min(hi, 4)) + 1)]
    text = "the trick is of " + " or ".join(kinds)
    return text if lo >= 1 else f"you lead, or {text}"


PHRASES: dict[str, Callable[[float, float], str]] = {
    "cards": lambda lo, hi: f"you hold {counted(lo, hi, 'cards')}",
    "ranks": lambda lo, hi: f"you hold {counted(lo, hi, 'different ranks')}",
    "sure": lambda lo, hi: (
        "every group you hold can be beaten"
        if hi <= 0
        else f"{counted(lo, hi)} of your groups cannot be beaten"
    ),
    "fewest": lambda lo, hi: f"the opponent with fewest cards holds {counted(lo, hi)}",
    "next": lambda lo, hi: f"the next player holds {counted(lo, hi, 'cards')}",
    "leading": _flag("you lead", "you answer a play"),
    "size": _size,
    "to_beat": _strength("the card to beat", "you lead"),
    "best": _strength("your strongest card", "you hold nothing", rare=True),
    "best_out": _strength("the strongest card still out", "every other card is played"),
    "low": lambda lo, hi: f"you hold {counted(lo, hi, 'cards from 3 to 7')}",
    "players": lambda lo, hi: f"{counted(lo, hi)} players still hold cards",
    "reversed": _flag("the order is reversed", "the order is normal"),
    "role": _roles,
    "owner": lambda lo, hi: (
        "you lead"
        if lo >= NOBODY
        else "you answer a play"
        if lo <= 0 and hi >= NOBODY - 1
        else f"the player who laid the card to beat holds {counted(lo, min(hi, NOBODY - 1), 'cards')}"
    ),
    "twos": lambda lo, hi: (
        "you hold no 2 and no joker" if hi <= 0 else f"you hold {counted(lo, hi, '2s and jokers')}"
    ),
    "last": _flag("everyone else has passed", "someone may still answer"),
    "cheapest": _strength("your weakest cards that can go", "nothing you hold can go", "are"),
    "breaks": _flag(
        "your weakest cards that can go would break a pair or more",
        "your weakest cards that can go are a whole group",
    ),
}


def condition_words(c: Condition) -> str:
    """One condition in words."""
    return PHRASES[c.name](c.lowest, c.highest)


def tip_words(tip: Tip) -> str:
    """The whole tip: ``When …, play …`` (always, without conditions)."""
    play = PLAY_WORDS[PLAYS[tip.play - 1][0]]
    if not tip.conditions:
        return f"{play.capitalize()}."
    when = " and ".join(condition_words(c) for c in tip.conditions)
    return f"When {when}, {play}."


def simple_words(tip: Tip) -> str:
    """What the simple player does there instead, in words (``pass``, ``play its …``)."""
    return PLAY_WORDS.get(tip.simple, "make another play").replace("your", "its")
