"""The environment's actions and observations as numbers (docs/env.md), without PettingZoo.

One fixed action space for every rule set and table size: a play of ``count`` cards of
``rank`` is ``4·rank + count - 1`` (0..55), the pass is 56, giving back a card of
``rank`` in the exchange is ``57 + rank`` (57..70). One fixed-shape observation vector,
padded to 8 seats and read from the player's own seat (offset 0 is himself, 1 the next
player clockwise, …), laid out by :data:`LAYOUT`. Both are functions of what a strategy
of the reference engine is told (an :class:`Observation`, or a give-back's hand and
count), so that an agent trained in the environment plays the same game as a
strategy in ``tournament`` and ``compare`` (:mod:`strategies.agent`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from simulator.reference.moves import PASS, Move, Run
from simulator.reference.round import Observation
from simulator.rules.cards import JOKER_IDS, NUM_RANKS, SUITS
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

N_PLAYS = 4 * NUM_RANKS
PASS_ACTION = N_PLAYS
GIVE_BASE = PASS_ACTION + 1
N_ACTIONS = GIVE_BASE + NUM_RANKS
INF = float("inf")
N_CARDS = JOKER_IDS[0]  # the 52 cards with a suit


def action_of(move: Move) -> int:
    """The action of a move (a play or the pass)."""
    return PASS_ACTION if move.is_pass else 4 * move.rank + move.count - 1


def move_of(action: int) -> Move:
    """The move of a play or pass action (below :data:`GIVE_BASE`)."""
    return PASS if action == PASS_ACTION else Move(action // 4, action % 4 + 1)


def play_mask(legal: Sequence[Move]) -> np.ndarray:
    """The action mask of a player to move: 1 at each legal move's action (a sequence has
    none: the actions are plays of one rank, and an agent passes on a sequence)."""
    mask = np.zeros(N_ACTIONS, np.int8)
    mask[[action_of(m) for m in legal if not isinstance(m, Run)]] = 1
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
LAYOUT: tuple[Field, ...] = (
    Field("hand", NUM_RANKS, 0, 4, "own cards by rank (3 … 2, joker); while giving back, "
          "the cards not yet given"),
    Field("played", NUM_RANKS, 0, 4, "cards played this round, by rank"),
    Field("cards_left", SEATS, 0, 54, "cards held, by seat offset (0 = self, 1 = next "
          "clockwise, …; 0 past the table)"),
    Field("passed", SEATS, 0, 1, "passed or skipped since the top was laid (under "
          "out_of_trick: in this trick), by seat offset"),
    Field("top_rank", NUM_RANKS, 0, 1, "the top's rank, one-hot (for transparent threes "
          "the rank they took); all 0 when leading"),
    Field("top_count", 1, 0, 4, "the top's number of cards; 0 when leading"),
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
          "cards over after his 7s or 10s (seven_passes, ten_discards)"),
    Field("to_give", 1, 0, MAX_EXCHANGE, "cards still to give back"),
    Field("club_opens", 1, 0, 1, "the 3 of clubs the giver holds opens the round "
          "(when the 3 of clubs opens every round)"),
    Field("cards", N_CARDS, 0, 1, "own cards with their suits, under the rules that read "
          "suits: 1 at card 4·rank + suit (suits clubs, diamonds, hearts, spades); all 0 "
          "under other rules and while giving back"),
    Field("top_suits", len(SUITS), 0, 1, "the top's suits (clubs, diamonds, hearts, "
          "spades) under the rules that read suits; all 0 for jokers alone"),
    Field("lock", len(SUITS), 0, 1, "the suits the trick is locked to (suit_lock); all 0 "
          "when it is not locked"),
    Field("rules", len(RULES_LABELS), -INF, INF, "the rules in force (RULES_LABELS)"),
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
    vec[OFFSETS["order_reversed"]] = obs.reversed
    vec[OFFSETS["trick_reversal"]] = obs.trick_reversal
    vec[OFFSETS["run"]] = obs.run
    for offset, role in enumerate(_by_offset(obs.seat, obs.roles)):
        vec[OFFSETS["roles"] + offset * len(ROLE_NAMES) + ROLE_NAMES.index(role)] = 1
    vec[[OFFSETS["cards"] + c for c in obs.cards if c < N_CARDS]] = 1  # jokers: in "hand"
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
