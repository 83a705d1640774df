"""Card names and rank indices.

Suits play no role in Président, so the engines only ever see ranks: index 0..12 for
``3 4 5 6 7 8 9 10 J Q K A 2`` and 13 for the joker ``JK``. A hand is a list of 14
rank counts. Suit letters are accepted on input (``"7H"``) and dropped.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from simulator.errors import PresidentError

RANK_NAMES: tuple[str, ...] = (
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "10",
    "J",
    "Q",
    "K",
    "A",
    "2",
    "JK",
)
NUM_RANKS = 14
THREE = 0
EIGHT = 5
JACK = 8
ACE = 11
TWO = 12
JOKER = 13
SUITS = "CDHS"
MAX_COPIES = (4,) * 13 + (2,)

_RANK_INDEX = {name: i for i, name in enumerate(RANK_NAMES)}


class CardError(PresidentError):
    """A card name that is not a card."""


def strength(rank: int, reversed_order: bool) -> int:
    """A rank's strength under the order in force: the reversed order turns 3 … 2 round, jokers
    stay on top."""
    if rank == JOKER:
        return JOKER
    return TWO - rank if reversed_order else rank


def parse_card(text: str) -> int:
    """Rank index of a card name such as ``"7"``, ``"10H"``, ``"JK"``; suits are ignored."""
    if not isinstance(text, str):
        raise CardError(f"card {text!r} is not a string (cards are ranks {' '.join(RANK_NAMES)})")
    name = text.strip().upper()
    if name in _RANK_INDEX:
        return _RANK_INDEX[name]
    if len(name) >= 2 and name[-1] in SUITS and name[:-1] in _RANK_INDEX and name[:-1] != "JK":
        return _RANK_INDEX[name[:-1]]
    raise CardError(
        f"unknown card {text!r} (a card is a rank {' '.join(RANK_NAMES)}, "
        f'optionally followed by a suit {" ".join(SUITS)}, e.g. "7H")'
    )


def counts_from_cards(cards: Iterable[int]) -> list[int]:
    """14 rank counts from a sequence of rank indices."""
    counts = [0] * NUM_RANKS
    for rank in cards:
        counts[rank] += 1
    return counts


def cards_from_counts(counts: Sequence[int]) -> list[int]:
    """Rank indices, weakest first in the normal order, from 14 rank counts."""
    return [rank for rank in range(NUM_RANKS) for _ in range(counts[rank])]


def card_names(rank: int, count: int) -> list[str]:
    """The ``cards`` list of a play: ``count`` times the rank's name."""
    return [RANK_NAMES[rank]] * count


def format_hand(counts: Sequence[int]) -> str:
    """A hand as text, weakest first: ``"3 3 7 K"``."""
    return " ".join(RANK_NAMES[r] for r in cards_from_counts(counts)) or "-"


def combo_name(rank: int, count: int) -> str:
    """A combination in words: ``single K``, ``pair of 7s``, ``three 9s``, ``four 3s``."""
    name = RANK_NAMES[rank]
    return {1: f"single {name}", 2: f"pair of {name}s", 3: f"three {name}s"}.get(
        count, f"four {name}s"
    )
