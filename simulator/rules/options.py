"""The house rules of Président, declared once: every option, its default, meaning and check.

Every option of the rule book (``docs/rules.md``, one section per option) is a field of
:class:`Rules` declared with :func:`option`: the key (the field's name), its type (the
annotation), its default, its allowed values, what it means in one line and, for a rule
that shows at the table, the words the play screen uses when it acts. Everything else is
derived from these declarations: the allowed values and the checks below, ``president
rules show --explain``, the report's rules in words, the play screen's wording and the
kernel's rules array (:mod:`simulator.kernel.layout`). Anything of the wrong type or out
of range is refused with a :class:`RulesError` that names the key and what is allowed,
because a silently ignored house rule would make every statistic wrong. Presets live in
:mod:`simulator.rules.presets`, rules files in :mod:`simulator.rules.files`.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from simulator.errors import PresidentError, did_you_mean
from simulator.rules.declare import option
from simulator.rules.points import MAX_POINTS_LIST, NO_POINTS, Points


class RulesError(PresidentError):
    """A rules file or rules mapping that cannot be used; the message names the key."""


MIN_PLAYERS, MAX_PLAYERS = 3, 8
MAX_EXCHANGE = 6  # the smallest hand (52 cards, 8 players) holds 6 cards
MAX_EXCHANGE_PAIRS = 4
MAX_TARGET = 10_000


@dataclass(frozen=True)
class Rules:
    """Every house rule of the rule book, with its default (see :func:`option`).

    Instances are immutable and hashable so that they can key caches and be compared
    across runs.
    """

    players: int = option(
        4,
        "Number of players, 3 to 8.",
        bounds=(MIN_PLAYERS, MAX_PLAYERS),
        allowed=f"an integer from {MIN_PLAYERS} to {MAX_PLAYERS}",
    )
    jokers: int = option(
        0,
        "0, 1 or 2 jokers; a joker (JK) is a plain card above the 2 (UECda plays with one).",
        choices=(0, 1, 2),
    )
    dealer: str = option(
        "scum",
        "Who deals from round 2 on: scum, president or rotate (left of last dealer).",
        choices=("scum", "president", "rotate"),
    )
    reseat: bool = option(
        False, "From round 2 on, players sit in finishing order (President first, clockwise)."
    )
    equal_rank: str = option(
        "off",
        "skip: the same number of cards of the same rank may be played and skips the next "
        "player; allow: the same plays are legal but skip nobody (they may follow one another).",
        choices=("off", "skip", "allow"),
    )
    larger_sets: str = option(
        "off",
        "higher_rank: more cards of a higher rank beat fewer; any: more cards always beat fewer.",
        choices=("off", "higher_rank", "any"),
    )
    transparent_threes: bool = option(
        False, "k threes may cover any top of k cards and take its rank."
    )
    two_ends_trick: bool = option(
        False,
        "A combination of 2s ends the trick at once; its player leads next.",
        at_table="2s end the trick",
        argued=True,
    )
    quad_burns: bool = option(
        False,
        "A four-of-a-kind may be played on any top (on a four only if higher) and ends the trick.",
        at_table="the four burns the pile",
    )
    revolution: bool = option(
        False,
        "Each four-of-a-kind reverses the order of 3…2 for the rest of the round "
        "(jokers stay top).",
        at_table="revolution: 2 weakest, 3 strongest",
        argued=True,
    )
    passing: str = option(
        "may_return",
        "may_return: a pass gives up one turn; out_of_trick: a pass leaves the trick.",
        choices=("may_return", "out_of_trick"),
    )
    no_finish_on_two: bool = option(
        False, "Going out on 2s (or jokers) takes the worst free place instead of the best."
    )
    exchange: tuple[int, ...] = option(
        (2, 1),
        "Cards exchanged between the i-th best and the i-th worst player, from round 2 on.",
        allowed=f"a list of at most {MAX_EXCHANGE_PAIRS} integers from 0 to {MAX_EXCHANGE}, "
        "e.g. [2, 1]",
        argued=True,  # its absence (exchange = []): the atlas's single change of it
    )
    opener: str = option(
        "scum",
        "Who leads from round 2 on: scum, president or left_of_dealer.",
        choices=("scum", "president", "left_of_dealer"),
    )
    points: Points = option(  # noqa: RUF009 (option() is a dataclasses.field)
        NO_POINTS,
        "Points per round by place (top from the first place, bottom from the last).",
        allowed="a table {top = [integers], bottom = [integers]}, e.g. {top = [2, 1], bottom = []}",
    )
    target: int = option(
        0,
        "A match ends after the round in which a player reaches it (alone in the lead); 0: none.",
        bounds=(0, MAX_TARGET),
        allowed=f"an integer from 0 (no target) to {MAX_TARGET}",
    )
    eight_ends_trick: bool = option(
        False,
        "A combination of 8s ends the trick at once, whatever the order in force; its player "
        'leads next (Daifugo\'s "8 cuts").',
        at_table="8s end the trick",
        argued=True,
    )
    jack_back: bool = option(
        False,
        "A combination of real jacks reverses the order in force from the next play until "
        'the end of the trick; a second one restores it (Daifugo\'s "11 back").',
        at_table="jack-back: 2 weakest, 3 strongest until the trick ends",
        argued=True,
    )
    accumulation_burns: bool = option(
        False,
        "The pile burns when the trick's latest run of plays of one rank reaches 4 cards (a "
        "play of 4 cards never burns this way); the burner leads next (French café rule).",
        at_table="the pile burns: 4 cards of one rank in a row",
    )
    out_ends_trick: bool = option(
        False,
        "The play that empties a hand ends the trick at once (it cannot be beaten); the next "
        "holder clockwise leads (American tables).",
        at_table="going out ends the trick",
    )
    after_out_lead: str = option(
        "next_holder",
        "Who leads after a trick topped by a player who went out: next_holder clockwise, or "
        'last_in_trick: the one player left in the trick (needs passing = "out_of_trick").',
        choices=("next_holder", "last_in_trick"),
    )
    clubs_three_opens: str = option(
        "off",
        "The holder of the 3 of clubs leads the first trick: first_round of a match only, or "
        "every_round (the holder after the exchange); off: opener decides.",
        choices=("off", "first_round", "every_round"),
    )
    opening_three: str = option(
        "clubs",
        "The 3 whose holder leads under clubs_three_opens: the 3 of clubs, or the 3 of "
        "diamonds (UECda).",
        choices=("clubs", "diamonds"),
    )
    five_skips: bool = option(
        False,
        "A play of 5s skips as many players as it holds 5s, each in turn as the next to "
        "answer (Daifugo's 5-skip); skipped back to its player, the trick is his.",
    )
    capital_falls: bool = option(
        False,
        "A President beaten to first place finishes last at once: when another player goes "
        "out first, the President's cards leave the round (Daifugo's miyako-ochi).",
    )
    seven_passes: bool = option(
        False,
        "A player who lays 7s then gives as many cards of his choice as 7s to the next "
        "player holding cards (Daifugo's 7-pass, nana-watashi).",
        at_table="7-pass: a card per 7 to the next player",
    )
    ten_discards: bool = option(
        False,
        "A player who lays 10s then discards as many cards of his choice as 10s, face up, "
        "out of the round (Daifugo's 10-discard, ju-sute).",
        at_table="10-discard: a card per 10, face up",
    )
    suit_lock: str = option(
        "off",
        "suits: two plays in a row of the same suits lock the trick to them until it ends; "
        "every play must then be of those suits (jokers follow them) (Daifugo's shibari).",
        choices=("off", "suits"),
        argued=True,
    )
    spade_three_return: bool = option(
        False,
        "A lone 3 of spades beats a lone joker and ends the trick; the joker cannot be beaten "
        "otherwise (Daifugo's spade-3 return, supe-3).",
        at_table="the 3 of spades beats the joker",
    )
    sequences: str = option(
        "off",
        "Sequences of 3+ ranks in a row of one suit (jokers stand in), beaten by one as long "
        "whose weakest card is above the top's highest (UECda) or lowest (Daifugo's kaidan).",
        choices=("off", "above_highest", "above_lowest"),
        argued=True,
    )
    sequence_revolution: int = option(
        0,
        "A sequence of this many cards or more (4 or 5; 0: off) reverses the order for the "
        "rest of the round, like a four under revolution (needs sequences).",
        choices=(0, 4, 5),
    )
    eights_in_sequences: str = option(
        "end_trick",
        "Under eight_ends_trick and sequences: end_trick, an 8 in a sequence ends the trick "
        "(UECda); plain, it does not (the Japan Daifugo federation).",
        choices=("end_trick", "plain"),
    )

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
        """52 cards and the jokers."""
        return 52 + self.jokers

    @property
    def suited(self) -> bool:
        """Whether a rule reads the cards' suits (catalogue III): the engines then follow
        each card, not only each rank (docs/rules.md, "Cards with suits")."""
        return self.suit_lock != "off" or self.spade_three_return or self.sequenced

    @property
    def opening_card(self) -> int:
        """The card id of the 3 that ``clubs_three_opens`` follows (its value's index: its suit)."""
        return CHOICES["opening_three"].index(self.opening_three)

    @property
    def eights_end_sequences(self) -> bool:
        """Whether an 8 in a sequence ends the trick (docs/rules.md, "eights_in_sequences")."""
        return self.eight_ends_trick and self.eights_in_sequences == "end_trick"

    @property
    def sequenced(self) -> bool:
        """Whether sequences may be laid (docs/rules.md, "sequences")."""
        return self.sequences != "off"


# ---------------------------------------------------------------- derived from the declarations

OPTIONS: tuple[dataclasses.Field[Any], ...] = dataclasses.fields(Rules)
KEYS = tuple(f.name for f in OPTIONS)
TYPES: dict[str, Any] = typing.get_type_hints(Rules)
CHOICES: dict[str, tuple[Any, ...]] = {
    f.name: f.metadata["choices"] for f in OPTIONS if f.metadata["choices"]
}
BOOL_KEYS = tuple(key for key in KEYS if TYPES[key] is bool)
ARGUED = tuple(f.name for f in OPTIONS if f.metadata["argued"])  # the default atlas's
AT_TABLE: dict[str, str] = {
    f.name: f.metadata["at_table"] for f in OPTIONS if f.metadata["at_table"]
}
"""Rule → what the play screen says when it acts (a trick ended at once, the order in force)."""


def option_meanings() -> dict[str, str]:
    """Every option → what it means, in one line (``rules show --explain``, the report)."""
    return {f.name: f.metadata["meaning"] for f in OPTIONS}


def allowed(key: str) -> str:
    """The values ``key`` allows, in words (for error messages)."""
    if key in CHOICES:
        return ", ".join(repr(v) if isinstance(v, str) else str(v) for v in CHOICES[key])
    if key in BOOL_KEYS:
        return "true, false"
    return next(f.metadata["allowed"] for f in OPTIONS if f.name == key)


def bad(key: str, value: Any) -> RulesError:
    shown = value if not isinstance(value, str) else repr(value)
    if isinstance(value, bool):
        shown = str(value).lower()
    return RulesError(f"rules: {key} = {shown} is not allowed (allowed: {allowed(key)})")


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _fits(f: dataclasses.Field[Any], value: Any) -> bool:
    """Whether ``value`` is of the option's type and among its allowed values."""
    choices, bounds, kind = f.metadata["choices"], f.metadata["bounds"], TYPES[f.name]
    if choices:
        return not isinstance(value, bool) and value in choices
    if kind is bool:
        return isinstance(value, bool)
    if bounds:
        return is_int(value) and bounds[0] <= value <= bounds[1]
    if kind is Points:
        return isinstance(value, Points) and all(
            isinstance(lst, tuple) and len(lst) <= MAX_POINTS_LIST and all(map(is_int, lst))
            for lst in (value.top, value.bottom)
        )
    return (  # the exchange: cards per pair
        isinstance(value, tuple)
        and len(value) <= MAX_EXCHANGE_PAIRS
        and all(is_int(k) and 0 <= k <= MAX_EXCHANGE for k in value)
    )


def validate(rules: Rules) -> None:
    """Refuse any out-of-range option (called on construction)."""
    for f in OPTIONS:
        value = getattr(rules, f.name)
        if not _fits(f, value):
            raise bad(
                f.name,
                list(value) if TYPES[f.name] is not Points and isinstance(value, tuple) else value,
            )
    if rules.after_out_lead == "last_in_trick" and rules.passing != "out_of_trick":
        raise RulesError(
            f'rules: after_out_lead = "last_in_trick" is not allowed with passing = '
            f'"{rules.passing}" (allowed: passing = "out_of_trick", or after_out_lead = '
            '"next_holder")'
        )
    if rules.spade_three_return and rules.jokers == 0:
        raise RulesError(
            "rules: spade_three_return = true is not allowed with jokers = 0: it beats a joker "
            "(allowed: jokers = 1 or 2, or spade_three_return = false)"
        )
    if _needs(rules):
        raise RulesError(f"rules: {_needs(rules)}")
    pts = rules.points
    if rules.target > 0 and not any(v > 0 for v in pts.top + pts.bottom):
        raise RulesError(
            f"rules: target = {rules.target} can never be reached: points gives no positive "
            "value (allowed: target = 0, or points with a positive value such as top = [2, 1])"
        )


def _needs(rules: Rules) -> str | None:
    """Why an option's value could never act with the others (None: it could)."""
    if rules.opening_three != "clubs" and rules.clubs_three_opens == "off":
        return (
            f'opening_three = "{rules.opening_three}" is not allowed with clubs_three_opens = '
            '"off": no 3 leads then (allowed: clubs_three_opens = "first_round" or '
            '"every_round", or opening_three = "clubs")'
        )
    if rules.sequence_revolution and not rules.sequenced:
        return (
            f"sequence_revolution = {rules.sequence_revolution} is not allowed with sequences "
            '= "off": it turns the order on a sequence (allowed: sequences = "above_highest" '
            'or "above_lowest", or sequence_revolution = 0)'
        )
    if rules.eights_in_sequences == "plain" and not (rules.sequenced and rules.eight_ends_trick):
        return (
            'eights_in_sequences = "plain" is not allowed without sequences and '
            "eight_ends_trick: it changes nothing then (allowed: eights_in_sequences = "
            '"end_trick", or sequences on and eight_ends_trick = true)'
        )
    return None


def convert(key: str, value: Any, base: Rules) -> Any:
    """A TOML/JSON value turned into the field's type, or a RulesError naming the key."""
    kind = TYPES[key]
    if kind is Points:
        return _points(value, base)
    if kind is not bool and kind is not int and kind is not str:  # a tuple: the exchange
        if not isinstance(value, list | tuple):
            raise bad(key, value)
        return tuple(value)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise bad(key, value)
    return value


def _points(value: Any, base: Rules) -> Points:
    """A points table ``{top = [...], bottom = [...]}``, the parts not given from ``base``."""
    if not isinstance(value, Mapping):
        raise bad("points", value)
    unknown = set(value) - {"top", "bottom"}
    if unknown:
        raise RulesError(
            f"rules: unknown key points.{sorted(unknown)[0]}"
            f"{did_you_mean(f'points.{sorted(unknown)[0]}', ('points.top', 'points.bottom'))} "
            "(allowed: points.top, points.bottom)"
        )
    parts = {}
    for sub in ("top", "bottom"):
        lst = value.get(sub, getattr(base.points, sub))
        if not isinstance(lst, list | tuple) or not all(is_int(v) for v in lst):
            raise RulesError(
                f"rules: points.{sub} = {lst!r} is not allowed "
                f"(allowed: a list of at most {MAX_POINTS_LIST} integers)"
            )
        parts[sub] = tuple(lst)
    return Points(**parts)


def changed(base: Rules, changes: Mapping[str, Any]) -> Rules:
    """``base`` with the options of a rules mapping changed, each converted and checked."""
    for key in changes:
        if key not in KEYS:
            raise RulesError(
                f"rules: unknown key {key!r}{did_you_mean(key, ('preset', *KEYS))} "
                f"(allowed: {', '.join(('preset', *KEYS))})"
            )
    return dataclasses.replace(
        base, **{key: convert(key, value, base) for key, value in changes.items()}
    )


def order_note(reversed_: bool, jack_back: bool) -> str:
    """The order in force in words, when it is not the plain normal order: ``reversed_``
    is the order in force, ``jack_back`` whether a jack-back is part of it."""
    if jack_back and not reversed_:
        return " (revolution turned back by jack-back: normal order until the trick ends)"
    if jack_back:
        return f" ({AT_TABLE['jack_back']})"
    return f" ({AT_TABLE['revolution']})" if reversed_ else ""
