"""The environment's actions and observations as numbers (docs/env.md), without PettingZoo.

One fixed action space for every rule set and table size, laid out by :data:`ACTIONS`:
plays of one rank by count (the rules' default cards), the pass, a card given back in
the exchange, plays of one rank by their suits (under the rules that read suits, which
let the player choose his cards), and sequences by shape and suit. One fixed-shape
observation vector, padded to 8 seats and read from the player's own seat (offset 0 is
himself, 1 the next player clockwise, …), laid out by :data:`LAYOUT`. Both are
functions of what a strategy of the reference engine is told (an :class:`Observation`,
or a give-back's hand and count), so that an agent trained in the environment plays the
same game as a strategy in ``tournament`` and ``compare`` (:mod:`strategies.agent`), and
one declaration serves every environment that shares the layout (docs/env.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import NamedTuple

import numpy as np

from simulator.reference.moves import PASS, Move, Named, Run
from simulator.reference.round import Observation
from simulator.reference.suits import (
    MIN_RUN,
    observed_play_cards,
    suit_set,
    why_not_named,
)
from simulator.rules.cards import DECK_IDS, JOKER, NUM_RANKS, SUITS, TWO, card_rank
from simulator.rules.options import (
    BOOL_KEYS,
    CHOICES,
    KEYS,
    MAX_EXCHANGE,
    MAX_PLAYERS,
    MAX_POINTS_LIST,
    Rules,
)
from simulator.rules.roles import ROLE_NAMES

# ---------------------------------------------------------------- the actions


class Family(NamedTuple):
    """A family of actions: its name, how many, what each does (docs/env.md's table)."""

    name: str
    size: int
    meaning: str


SUIT_SETS = 2 ** len(SUITS) - 1  # the non-empty sets of suits, a bit each: 1 … 15
MAX_RUN = TWO + 1  # the longest sequence: 3 … 2, with jokers standing in or not
RUN_SHAPES: tuple[tuple[int, int], ...] = tuple(
    (length, low) for length in range(MIN_RUN, MAX_RUN + 1) for low in range(MAX_RUN - length + 1)
)  # (length, lowest rank), by length then lowest rank: the engines' order of sequences
ACTIONS: tuple[Family, ...] = (
    Family("play", 4 * NUM_RANKS, "`4 * rank + count - 1`: play `count` cards (1 to 4) of "
           "`rank` (0 = 3, 1 = 4, …, 11 = A, 12 = 2, 13 = joker), the rules' default cards; "
           "under the rules that read suits, only the jokers' (52, 53)"),
    Family("pass", 1, "pass"),
    Family("give", NUM_RANKS, "`+ rank`: give back one card of `rank` in the exchange (or "
           "hand it over after 7s or 10s), its lowest suit"),
    Family("play_suits", SUIT_SETS * (NUM_RANKS - 1), "`+ 15 * rank + suits - 1`: under the "
           "rules that read suits, play the cards of `rank` (0 = 3 … 12 = 2) of the suits "
           "`suits` (1 to 15, a bit each: 1 clubs, 2 diamonds, 4 hearts, 8 spades)"),
    Family("sequence", len(SUITS) * len(RUN_SHAPES), "`+ 4 * shape + suit`: lay the sequence "
           "of `suit` (0 clubs … 3 spades) of shape `RUN_SHAPES[shape]` = (length, lowest "
           "rank): lengths 3 to 13, by length then lowest rank (0: 3 4 5 of the length 3)"),
)  # fmt: skip
BASE = {f.name: sum(g.size for g in ACTIONS[:i]) for i, f in enumerate(ACTIONS)}
N_ACTIONS = sum(f.size for f in ACTIONS)
N_PLAYS = BASE["pass"]
PASS_ACTION = BASE["pass"]
GIVE_BASE = BASE["give"]
SUITS_BASE = BASE["play_suits"]
RUN_BASE = BASE["sequence"]
_SHAPE = {shape: i for i, shape in enumerate(RUN_SHAPES)}


def family(action: int) -> str:
    """The name of the family of an action (0 to ``N_ACTIONS - 1``)."""
    return next(f.name for f in reversed(ACTIONS) if action >= BASE[f.name])


def wrong_family(action: int, suited: bool) -> str | None:
    """Why an action of a player to move is of a family his rules do not play (None: it
    is not): a give-back outside the exchange; under the rules that read suits, a play of
    ranks 3 … 2 by count (it names its suits); under the others, a play by suits."""
    kind = family(action)
    if kind == "give":
        return "no card exchange is under way"
    if kind == "play_suits" and not suited:
        return f"the rules do not read suits: a play is 4 * rank + count - 1 (below {N_PLAYS})"
    if kind == "play" and suited and action // 4 != JOKER:
        return (f"the rules read suits: a play of ranks 3 … 2 names its suits "
                f"({SUITS_BASE} + 15 * rank + suits - 1)")  # fmt: skip
    return None


def as_named(move: Move | Run | Named) -> tuple[Move | Run, tuple[int, ...]]:
    """A move and the cards it names (none unless it is a :class:`Named` play)."""
    return (move.move, move.cards) if isinstance(move, Named) else (move, ())


def action_of(move: Move | Run | Named, obs: Observation | None = None) -> int:
    """The action of a move: a play, the pass or a sequence. Under the rules that read
    suits, a play of ranks 3 … 2 is the action of its cards' suits: the cards it names
    (:class:`Named`), else the cards the engine lays for it from ``obs``'s hand
    (:func:`~simulator.reference.suits.observed_play_cards`, as when a strategy answers
    with a plain move)."""
    move, cards = as_named(move)
    if isinstance(move, Run):
        return RUN_BASE + len(SUITS) * _SHAPE[move.length, move.low] + move.suit
    if move.is_pass:
        return PASS_ACTION
    if move.rank != JOKER and not cards and obs is not None and obs.rules.suited:
        cards = observed_play_cards(obs, move.rank, move.count) or ()
    if move.rank != JOKER and cards:
        return SUITS_BASE + SUIT_SETS * move.rank + suit_set(cards) - 1
    return 4 * move.rank + move.count - 1


def move_of(action: int) -> Move | Named | Run:
    """The move of an action but a give-back: a play of one rank (by its suits: a
    :class:`Named` play), the pass or a sequence."""
    if action < PASS_ACTION:
        return Move(action // 4, action % 4 + 1)
    if action == PASS_ACTION:
        return PASS
    if action >= RUN_BASE:
        shape, suit = divmod(action - RUN_BASE, len(SUITS))
        length, low = RUN_SHAPES[shape]
        return Run(low, length, suit)
    if action >= SUITS_BASE:
        rank, suits = divmod(action - SUITS_BASE, SUIT_SETS)
        cards = tuple(4 * rank + s for s in range(len(SUITS)) if (suits + 1) >> s & 1)
        return Named(Move(rank, len(cards)), cards)
    raise ValueError(f"action {action} gives back a card: it is not a move")


def card_choices(obs: Observation, move: Move) -> list[tuple[int, ...]]:
    """The sets of cards a legal play of one rank may lay, under the rules that read
    suits: the player's cards of its rank that the rules allow together (the lock, the 3
    of spades on a lone joker: :func:`~simulator.reference.suits.why_not_named`)."""
    held = [card for card in obs.cards if card_rank(card) == move.rank]
    return [
        cards
        for cards in combinations(held, move.count)
        if why_not_named(obs, move.rank, move.count, cards) is None
    ]


def play_mask(obs: Observation) -> np.ndarray:
    """The action mask of the player to move: 1 at each legal move's action; under the
    rules that read suits, a play of ranks 3 … 2 at each set of suits it may lay."""
    mask = np.zeros(N_ACTIONS, np.int8)
    for move in obs.legal:
        if obs.rules.suited and isinstance(move, Move) and not move.is_pass and move.rank != JOKER:
            mask[[action_of(Named(move, cards)) for cards in card_choices(obs, move)]] = 1
        else:
            mask[action_of(move)] = 1
    return mask


def give_mask(hand: Sequence[int]) -> np.ndarray:
    """The action mask of a player giving back: 1 at each rank he still holds."""
    mask = np.zeros(N_ACTIONS, np.int8)
    mask[GIVE_BASE : GIVE_BASE + NUM_RANKS] = np.asarray(hand[:NUM_RANKS]) > 0
    return mask


# ---------------------------------------------------------------- the rules as numbers


def _rules_labels() -> tuple[str, ...]:
    """One name per number of the rules vector: ``players``, ``jokers``, ``target``,
    ``KEY`` for an on/off rule, ``KEY=VALUE`` for a choice (one-hot), ``exchange[i]``,
    ``points.top[i]``, ``points.bottom[i]``; in rule-book order."""
    labels: list[str] = []
    for key in KEYS:
        if key in BOOL_KEYS or key in ("players", "jokers", "target"):
            labels.append(key)
        elif key in CHOICES:
            labels += [f"{key}={value}" for value in CHOICES[key]]
        elif key == "exchange":
            labels += [f"exchange[{i}]" for i in range(MAX_PLAYERS // 2)]
        else:
            labels += [
                f"points.{end}[{i}]" for end in ("top", "bottom") for i in range(MAX_POINTS_LIST)
            ]
    return tuple(labels)


RULES_LABELS = _rules_labels()


def rules_vector(rules: Rules) -> np.ndarray:
    """The rules in force as the numbers named by :data:`RULES_LABELS`."""
    values: list[float] = []
    for key in KEYS:
        value = getattr(rules, key)
        if key in BOOL_KEYS or key in ("players", "jokers", "target"):
            values.append(float(value))
        elif key in CHOICES:
            values += [float(value == choice) for choice in CHOICES[key]]
        elif key == "exchange":
            values += [float(k) for k in value] + [0.0] * (MAX_PLAYERS // 2 - len(value))
        else:
            for end in (value.top, value.bottom):
                values += [float(v) for v in end] + [0.0] * (MAX_POINTS_LIST - len(end))
    return np.asarray(values, np.float32)


# ---------------------------------------------------------------- the observation vector


class Field(NamedTuple):
    """A block of the observation vector: its name, length, bounds and meaning."""

    name: str
    size: int
    low: float
    high: float
    meaning: str


SEATS = MAX_PLAYERS
INF = float("inf")
LAYOUT: tuple[Field, ...] = (
    Field("hand", NUM_RANKS, 0, 4, "own cards by rank (3 … 2, joker); while giving back, "
          "the cards not yet given"),
    Field("played", NUM_RANKS, 0, 4, "cards played this round, by rank"),
    Field("cards_left", SEATS, 0, 54, "cards held, by seat offset (0 = self, 1 = next "
          "clockwise, …; 0 past the table)"),
    Field("passed", SEATS, 0, 1, "passed or skipped since the top was laid (under "
          "`out_of_trick`: in this trick), by seat offset"),
    Field("top_rank", NUM_RANKS, 0, 1, "the top's rank, one-hot (for transparent threes "
          "the rank they took; for a sequence its lowest rank); all 0 when leading"),
    Field("top_count", 1, 0, MAX_RUN, "the top's number of cards (a sequence's length); 0 "
          "when leading"),
    Field("top_owner", SEATS, 0, 1, "who laid the top, one-hot by seat offset"),
    Field("order_reversed", 1, 0, 1, "the order in force is 2 weakest, 3 strongest "
          "(revolutions and jack-back together)"),
    Field("trick_reversal", 1, 0, 1, "jacks reverse the order once more until this trick "
          "ends"),
    Field("run", 1, 0, 8, "cards in the trick's latest run of one rank (4 burn the pile "
          "when that rule is on)"),
    Field("roles", SEATS * len(ROLE_NAMES), 0, 1, "the previous round's role by seat "
          f"offset, one-hot over {', '.join(ROLE_NAMES)}; all 0 in a match's first round"),
    Field("giving", 1, 0, 1, "1 while the player gives back cards in the exchange, or hands "
          "cards over after his 7s or 10s (`seven_passes`, `ten_discards`)"),
    Field("to_give", 1, 0, MAX_EXCHANGE, "cards still to give back"),
    Field("club_opens", 1, 0, 1, "the 3 of clubs the giver holds opens the round "
          "(when the 3 of clubs opens every round)"),
    Field("cards", DECK_IDS, 0, 1, "own cards with their suits, under the rules that read "
          "suits: 1 at card id 4·rank + suit (suits clubs, diamonds, hearts, spades), the "
          "jokers at 52 and 53; all 0 under other rules and while giving back"),
    Field("top_suits", len(SUITS), 0, 1, "the top's suits (clubs, diamonds, hearts, "
          "spades) under the rules that read suits; all 0 for jokers alone"),
    Field("lock", len(SUITS), 0, 1, "the suits the trick is locked to (`suit_lock`); all 0 "
          "when it is not locked"),
    Field("top_sequence", 1, 0, MAX_RUN, "the length of the sequence on top (`sequences`); 0 "
          "when the top is not a sequence, or when leading"),
    Field("rules", len(RULES_LABELS), -INF, INF, "the rules in force, named by "
          "`RULES_LABELS` (below)"),
)  # fmt: skip
OFFSETS = {f.name: sum(g.size for g in LAYOUT[:i]) for i, f in enumerate(LAYOUT)}
OBS_SIZE = sum(f.size for f in LAYOUT)
LOW = np.concatenate([np.full(f.size, f.low, np.float32) for f in LAYOUT])
HIGH = np.concatenate([np.full(f.size, f.high, np.float32) for f in LAYOUT])


def _put(vec: np.ndarray, name: str, values: Sequence[float] | np.ndarray, at: int = 0) -> None:
    start = OFFSETS[name] + at
    vec[start : start + len(values)] = values


def _by_offset(seat: int, values: Sequence) -> list:
    """Per-seat values reordered from the player's seat on (offset 0 = himself)."""
    n = len(values)
    return [values[(seat + i) % n] for i in range(n)]


def _suit_bits(suits: int) -> list[float]:
    """A suit set (a bit per suit, clubs first) as four numbers."""
    return [float(suits >> s & 1) for s in range(len(SUITS))]


def play_observation(obs: Observation, rules_vec: np.ndarray) -> np.ndarray:
    """The observation vector of a player in a round (his turn or not)."""
    vec = np.zeros(OBS_SIZE, np.float32)
    _put(vec, "hand", obs.hand)
    _put(vec, "played", obs.played)
    _put(vec, "cards_left", _by_offset(obs.seat, obs.cards_left))
    _put(vec, "passed", [float(p) for p in _by_offset(obs.seat, obs.passed)])
    if obs.top is not None:
        vec[OFFSETS["top_rank"] + obs.top.rank] = 1
        vec[OFFSETS["top_count"]] = obs.top.count
        vec[OFFSETS["top_owner"] + (obs.top.owner - obs.seat) % len(obs.passed)] = 1
        vec[OFFSETS["top_sequence"]] = obs.top.count if obs.top.run else 0
    vec[OFFSETS["order_reversed"]] = obs.reversed
    vec[OFFSETS["trick_reversal"]] = obs.trick_reversal
    vec[OFFSETS["run"]] = obs.run
    for offset, role in enumerate(_by_offset(obs.seat, obs.roles)):
        vec[OFFSETS["roles"] + offset * len(ROLE_NAMES) + ROLE_NAMES.index(role)] = 1
    vec[[OFFSETS["cards"] + c for c in obs.cards]] = 1
    _put(vec, "top_suits", _suit_bits(obs.top_suits))
    _put(vec, "lock", _suit_bits(obs.lock))
    _put(vec, "rules", rules_vec)
    return vec


def give_observation(
    hand: Sequence[int], to_give: int, opens: bool, rules_vec: np.ndarray
) -> np.ndarray:
    """The observation vector of a player giving back cards: his hand (the cards not yet
    given), how many are still to give, whether his 3 of clubs opens, the rules; the
    table's blocks are 0 (a give-back is told no more)."""
    vec = np.zeros(OBS_SIZE, np.float32)
    _put(vec, "hand", hand)
    vec[OFFSETS["giving"]] = 1
    vec[OFFSETS["to_give"]] = to_give
    vec[OFFSETS["club_opens"]] = opens
    _put(vec, "rules", rules_vec)
    return vec
