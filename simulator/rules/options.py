"""The house rules of Président as one frozen dataclass: every option, its default, its check.

Every option of the rule book (``docs/rules.md``, one section per option) is a field of
:class:`Rules` with the same key name, default and allowed values. Anything of the wrong
type or out of range is refused with a :class:`RulesError` that names the key and what is
allowed, because a silently ignored house rule would make every statistic wrong. Presets
live in :mod:`simulator.rules.presets`, rules files in :mod:`simulator.rules.files`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from simulator.errors import PresidentError


class RulesError(PresidentError):
    """A rules file or rules mapping that cannot be used; the message names the key."""


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


@dataclass(frozen=True)
class Rules:
    """Every house rule of the rule book, with its default.

    The field docstrings below are the rule book's options in short; docs/rules.md is
    the full text (one section per option). Instances are immutable and hashable so
    that they can key caches and be compared across runs.
    """

    players: int = 4
    """Number of players, 3 to 8."""
    jokers: int = 0
    """0 or 2 jokers; a joker (``JK``) is a plain card above the 2."""
    dealer: str = "scum"
    """Who deals from round 2 on: ``scum``, ``president`` or ``rotate`` (left of last dealer)."""
    reseat: bool = False
    """From round 2 on, players sit in finishing order (President first, clockwise)."""
    equal_rank: str = "off"
    """``skip``: the same number of cards of the same rank may be played and skips the next
    player; ``allow``: the same plays are legal but skip nobody (they may follow one another)."""
    larger_sets: str = "off"
    """``higher_rank``: more cards of a higher rank beat fewer; ``any``: more cards always beat fewer."""
    transparent_threes: bool = False
    """k threes may cover any top of k cards and take its rank."""
    two_ends_trick: bool = False
    """A combination of 2s ends the trick at once; its player leads next."""
    quad_burns: bool = False
    """A four-of-a-kind may be played on any top (on a four only if higher) and ends the trick."""
    revolution: bool = False
    """Each four-of-a-kind reverses the order of 3…2 for the rest of the round (jokers stay top)."""
    passing: str = "may_return"
    """``may_return``: a pass gives up one turn; ``out_of_trick``: a pass leaves the trick."""
    no_finish_on_two: bool = False
    """Going out on 2s (or jokers) takes the worst free place instead of the best."""
    exchange: tuple[int, ...] = (2, 1)
    """Cards exchanged between the i-th best and the i-th worst player, from round 2 on."""
    opener: str = "scum"
    """Who leads from round 2 on: ``scum``, ``president`` or ``left_of_dealer``."""
    points: Points = field(default_factory=Points)
    """Points per round by place (``top`` from the first place, ``bottom`` from the last)."""
    target: int = 0
    """A match ends after the round in which a player reaches it (alone in the lead); 0: none."""
    eight_ends_trick: bool = False
    """A combination of 8s ends the trick at once, whatever the order in force; its player leads
    next (Daifugo's "8 cuts")."""
    jack_back: bool = False
    """A combination of real jacks reverses the order in force from the next play until the end of
    the trick; a second one restores it (Daifugo's "11 back")."""
    accumulation_burns: bool = False
    """The pile burns when the trick's latest run of plays of one rank reaches 4 cards (a play of
    4 cards never burns this way); the burner leads next (French café rule)."""
    out_ends_trick: bool = False
    """The play that empties a hand ends the trick at once (it cannot be beaten); the next holder
    clockwise leads (American tables)."""
    after_out_lead: str = "next_holder"
    """Who leads after a trick topped by a player who went out: ``next_holder`` clockwise, or
    ``last_in_trick``: the one player left in the trick (needs ``passing = "out_of_trick"``)."""
    clubs_three_opens: str = "off"
    """The holder of the 3 of clubs leads the first trick: ``first_round`` of a match only, or
    ``every_round`` (the holder after the exchange); ``off``: ``opener`` decides."""

    def __post_init__(self) -> None:
        validate(self)

    def with_options(self, **changes: Any) -> Rules:
        """A copy with some options changed (validated like a rules file)."""
        return changed(self, changes)

    def to_dict(self) -> dict[str, Any]:
        """Every option as plain TOML/JSON-ready values, in rule-book order."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, Points):
                value = {"top": list(value.top), "bottom": list(value.bottom)}
            elif isinstance(value, tuple):
                value = list(value)
            out[f.name] = value
        return out

    @property
    def deck_size(self) -> int:
        """52 cards, or 54 with jokers."""
        return 52 + self.jokers


# ---------------------------------------------------------------- allowed values

CHOICES: dict[str, tuple[Any, ...]] = {
    "jokers": (0, 2),
    "dealer": ("scum", "president", "rotate"),
    "equal_rank": ("off", "skip", "allow"),
    "larger_sets": ("off", "higher_rank", "any"),
    "passing": ("may_return", "out_of_trick"),
    "opener": ("scum", "president", "left_of_dealer"),
    "after_out_lead": ("next_holder", "last_in_trick"),
    "clubs_three_opens": ("off", "first_round", "every_round"),
}
BOOL_KEYS = (
    "reseat",
    "transparent_threes",
    "two_ends_trick",
    "quad_burns",
    "revolution",
    "no_finish_on_two",
    "eight_ends_trick",
    "jack_back",
    "accumulation_burns",
    "out_ends_trick",
)
MIN_PLAYERS, MAX_PLAYERS = 3, 8
MAX_EXCHANGE = 6  # the smallest hand (52 cards, 8 players) holds 6 cards
MAX_POINTS_LIST = 8
MAX_TARGET = 10_000
KEYS = tuple(f.name for f in dataclasses.fields(Rules))


def allowed(key: str) -> str:
    if key in CHOICES:
        return ", ".join(repr(v) if isinstance(v, str) else str(v) for v in CHOICES[key])
    if key in BOOL_KEYS:
        return "true, false"
    return {
        "players": f"an integer from {MIN_PLAYERS} to {MAX_PLAYERS}",
        "exchange": f"a list of at most 4 integers from 0 to {MAX_EXCHANGE}, e.g. [2, 1]",
        "points": "a table {top = [integers], bottom = [integers]}, e.g. {top = [2, 1], bottom = []}",
        "target": f"an integer from 0 (no target) to {MAX_TARGET}",
    }[key]


def bad(key: str, value: Any) -> RulesError:
    shown = value if not isinstance(value, str) else repr(value)
    if isinstance(value, bool):
        shown = str(value).lower()
    return RulesError(f"rules: {key} = {shown} is not allowed (allowed: {allowed(key)})")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def validate(rules: Rules) -> None:
    """Refuse any out-of-range option (called on construction)."""
    if not _is_int(rules.players) or not MIN_PLAYERS <= rules.players <= MAX_PLAYERS:
        raise bad("players", rules.players)
    for key, choices in CHOICES.items():
        value = getattr(rules, key)
        if isinstance(value, bool) or value not in choices:
            raise bad(key, value)
    for key in BOOL_KEYS:
        if not isinstance(getattr(rules, key), bool):
            raise bad(key, getattr(rules, key))
    ex = rules.exchange
    if (
        not isinstance(ex, tuple)
        or len(ex) > 4
        or not all(_is_int(k) and 0 <= k <= MAX_EXCHANGE for k in ex)
    ):
        raise bad("exchange", list(ex) if isinstance(ex, tuple) else ex)
    pts = rules.points
    if not isinstance(pts, Points) or not all(
        isinstance(lst, tuple) and len(lst) <= MAX_POINTS_LIST and all(_is_int(v) for v in lst)
        for lst in (pts.top, pts.bottom)
    ):
        raise bad("points", pts)
    if not _is_int(rules.target) or not 0 <= rules.target <= MAX_TARGET:
        raise bad("target", rules.target)
    if rules.after_out_lead == "last_in_trick" and rules.passing != "out_of_trick":
        raise RulesError(
            f'rules: after_out_lead = "last_in_trick" is not allowed with passing = '
            f'"{rules.passing}" (allowed: passing = "out_of_trick", or after_out_lead = '
            '"next_holder")'
        )
    if rules.target > 0 and not any(v > 0 for v in pts.top + pts.bottom):
        raise RulesError(
            f"rules: target = {rules.target} can never be reached: points gives no positive "
            "value (allowed: target = 0, or points with a positive value such as top = [2, 1])"
        )


def convert(key: str, value: Any, base: Rules) -> Any:
    """A TOML/JSON value turned into the field's type, or a RulesError naming the key."""
    if key == "exchange":
        if not isinstance(value, list | tuple):
            raise bad(key, value)
        return tuple(value)
    if key == "points":
        if not isinstance(value, Mapping):
            raise bad(key, value)
        unknown = set(value) - {"top", "bottom"}
        if unknown:
            raise RulesError(
                f"rules: unknown key points.{sorted(unknown)[0]} (allowed: points.top, points.bottom)"
            )
        parts = {}
        for sub in ("top", "bottom"):
            lst = value.get(sub, getattr(base.points, sub))
            if not isinstance(lst, list | tuple) or not all(_is_int(v) for v in lst):
                raise RulesError(
                    f"rules: points.{sub} = {lst!r} is not allowed "
                    f"(allowed: a list of at most {MAX_POINTS_LIST} integers)"
                )
            parts[sub] = tuple(lst)
        return Points(**parts)
    expected = type(getattr(Rules(), key))
    if expected is bool and not isinstance(value, bool):
        raise bad(key, value)
    if expected is int and not _is_int(value):
        raise bad(key, value)
    if expected is str and not isinstance(value, str):
        raise bad(key, value)
    return value


def changed(base: Rules, changes: Mapping[str, Any]) -> Rules:
    """``base`` with the options of a rules mapping changed, each converted and checked."""
    for key in changes:
        if key not in KEYS:
            raise RulesError(
                f"rules: unknown key {key!r} (allowed: {', '.join(('preset', *KEYS))})"
            )
    return dataclasses.replace(
        base, **{key: convert(key, value, base) for key, value in changes.items()}
    )
