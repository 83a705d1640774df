"""Card names, rank indices and card ids.

Ranks: index 0..12 for ``3 4 5 6 7 8 9 10 J Q K A 2`` and 13 for the joker ``JK``.
Under Président's rules suits play no role, so the engines see ranks: a hand is a list
of 14 rank counts, and suit letters are accepted on input (``"7H"``) and dropped.

Cards: each of the 52 cards has an id, ``4 × rank + suit`` (suits ``C D H S`` = 0..3),
and the jokers are 52 and 53. The unshuffled deck is the cards in id order, so the
rank of the card at a place of the deck is ``id // 4``, as the decks of ranks the
engines shuffle hold (the 3 of clubs is card 0): a deal of card ids deals exactly the
ranks a deal of ranks deals. Named with their suit (``"3S"``, ``"10H"``, ``"JK"``) where
suits matter: Daifugō's rules (docs/rules.md, catalogue III).
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
FIVE = 2
SEVEN = 4
EIGHT = 5
TEN = 7
JACK = 8
ACE = 11
TWO = 12
JOKER = 13
SUITS = "CDHS"  # clubs, diamonds, hearts, spades: suit 0..3 of a card id
MAX_COPIES = (4,) * 13 + (2,)
JOKER_IDS = (52, 53)
DECK_IDS = 54  # card ids 0..53: 52 cards, then the two jokers

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


def run_name(low: int, length: int) -> str:
    """A sequence in words: ``sequence 4 5 6``."""
    return "sequence " + " ".join(RANK_NAMES[r] for r in range(low, low + length))


def card_rank(card: int) -> int:
    """The rank index of card id ``card`` (both jokers: 13)."""
    return card >> 2


def card_suit(card: int) -> int | None:
    """The suit (0..3, ``C D H S``) of card id ``card``; None for a joker."""
    return None if card >= JOKER_IDS[0] else card & 3


def card_id(rank: int, suit: int) -> int:
    """The id of the card of ``rank`` (0..12) and ``suit`` (0..3)."""
    return 4 * rank + suit


SPADE = SUITS.index("S")
CLUBS_THREE = card_id(THREE, SUITS.index("C"))  # clubs_three_opens: card 0 of the deck
SPADE_THREE = card_id(THREE, SPADE)  # spade_three_return: it beats a lone joker
SPADES = 1 << SPADE  # the suit set (a bit per suit) of the spades alone


def card_name(card: int) -> str:
    """A card id as text with its suit: ``"3C"``, ``"10H"``, ``"JK"``."""
    if not 0 <= card < DECK_IDS:
        raise CardError(f"card id {card} is not a card (ids 0 to {DECK_IDS - 1})")
    suit = card_suit(card)
    return "JK" if suit is None else RANK_NAMES[card_rank(card)] + SUITS[suit]


def parse_suited_card(text: str) -> int:
    """The card id of a name with its suit (``"7H"``, ``"10s"``) or ``"JK"`` (the first
    joker's id; a second ``JK`` of a hand is the second joker, :func:`parse_suited_cards`)."""
    name = text.strip().upper() if isinstance(text, str) else ""
    if name == "JK":
        return JOKER_IDS[0]
    rank = _RANK_INDEX.get(name[:-1]) if len(name) >= 2 else None
    if rank is None or rank == JOKER or name[-1] not in SUITS:
        raise CardError(
            f"unknown card {text!r} (a card is a rank {' '.join(RANK_NAMES[:JOKER])} "
            f'followed by a suit {" ".join(SUITS)}, e.g. "7H", or the joker "JK")'
        )
    return card_id(rank, SUITS.index(name[-1]))


def parse_suited_cards(texts: Iterable[str]) -> list[int]:
    """Card ids of names with suits, each card at most once (the jokers: ``JK`` twice)."""
    cards: list[int] = []
    for text in texts:
        card = parse_suited_card(text)
        if card == JOKER_IDS[0] and card in cards:
            card = JOKER_IDS[1]
        if card in cards:
            raise CardError(f"card {card_name(card)} is named twice (a deck holds one of each)")
        cards.append(card)
    return cards


def named_ids(texts: Sequence[object]) -> tuple[int, ...]:
    """The card ids a play or a gift names, under the rules that read suits: every card
    but the jokers with its suit (``["7H", "7S", "JK"]``: the 7s), or none (``()``: the
    rules' default cards leave the hand). A CardError when only some name their suit."""
    suited = [t for t in texts if isinstance(t, str) and parse_card(t) != JOKER]
    if not any(t.strip()[-1:].upper() in SUITS for t in suited):
        return ()
    try:
        return tuple(parse_suited_card(t) for t in suited)
    except CardError:
        shown = " ".join(map(str, texts))
        raise CardError(f"name the suit of every card of a play or of none ({shown})") from None


def counts_from_ids(cards: Iterable[int]) -> list[int]:
    """14 rank counts of a set of card ids (what a hand is under suitless rules)."""
    return counts_from_cards(card_rank(card) for card in cards)


def format_cards(cards: Iterable[int]) -> str:
    """Card ids as text, weakest first in the normal order then by suit: ``"3C 3S 10H JK"``."""
    return " ".join(card_name(card) for card in sorted(cards)) or "-"
