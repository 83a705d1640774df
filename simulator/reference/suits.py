"""Cards with suits on the reference engine: which card each player holds, the suits of
the top, the suit lock and the 3 of spades against the joker (docs/rules.md, "Cards with
suits").

Under rules where no rule reads suits (:attr:`~simulator.rules.options.Rules.suited`
false) the engines follow ranks only and nothing here is used. Under the others a hand
is also a set of card ids (:mod:`simulator.rules.cards`), and every card that leaves a
hand is a definite card: the one the move names when it names one, else the one a rule
imposes (the locked suits; the 3 of spades against a lone joker), else the default —
the lowest suits of the rank first (clubs, diamonds, hearts, spades; the jokers in id
order). The exchange, a 7's gift and a 10's discard take their cards the same way. The
kernel's twin is :mod:`simulator.kernel.suits`.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import Protocol

from simulator.reference.moves import Run, Top
from simulator.rules.cards import (
    JOKER,
    JOKER_IDS,
    SPADE_THREE,
    SPADES,
    THREE,
    TWO,
    CardError,
    card_name,
    card_rank,
    card_suit,
    parse_suited_card,
)
from simulator.rules.options import Rules


class Observed(Protocol):
    """The suits a player sees of the table and of his hand (an ``Observation``)."""

    top_suits: int
    lock: int
    cards: tuple[int, ...]
    top: Top | None
    rules: Rules


SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades")
RETURN_KEY = "spade_three_return"  # the rule that ends a trick on the 3 of spades


def suit_set(cards: Iterable[int]) -> int:
    """The suits of some cards, a bit each (bit ``s`` for suit ``s``); jokers have none."""
    suits = 0
    for card in cards:
        suit = card_suit(card)
        if suit is not None:
            suits |= 1 << suit
    return suits


def suits_in_words(suits: int) -> str:
    """A suit set in words: ``"hearts and spades"``."""
    words = [SUIT_WORDS[s] for s in range(4) if suits >> s & 1]
    return words[-1] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def suits_note(obs: Observed) -> str:
    """The suits of the top and of the lock in words, for the play screen (empty under
    rules that do not read suits, or with no suits to tell)."""
    if obs.lock:
        return f"; the trick is locked to {suits_in_words(obs.lock)}"
    if obs.top_suits:
        return f" ({suits_in_words(obs.top_suits)})"
    return ""


def default_cards(held: Iterable[int], rank: int, count: int) -> list[int]:
    """The ``count`` cards of ``rank`` that leave a hand when nothing else decides: the
    lowest suits first (jokers: in id order); fewer when the hand holds fewer."""
    return sorted(card for card in held if card_rank(card) == rank)[:count]


def spade_return(returns: bool, rank: int, count: int, top: Top | None) -> bool:
    """Whether ``count`` cards of ``rank`` on ``top`` are the 3 of spades against a lone
    joker, under ``spade_three_return`` (``returns``): it may be laid there, and it ends
    the trick."""
    return (
        returns
        and rank == THREE
        and count == 1
        and top is not None
        and top.rank == JOKER
        and top.count == 1
    )


def why_not_named(obs: Observed, rank: int, count: int, named: Sequence[int]) -> str | None:
    """:func:`why_not_cards` for the player of an observation (a strategy's named play)."""
    spade = spade_return(obs.rules.spade_three_return, rank, count, obs.top)
    return why_not_cards(obs.cards, obs.lock, spade, rank, count, named)


def why_not_cards(
    held: Iterable[int], lock: int, spade: bool, rank: int, count: int, named: Sequence[int]
) -> str | None:
    """Why the cards ``named`` cannot be those of a legal play of ``count`` cards of
    ``rank`` from the cards ``held`` (None: they can): each held, of the rank, as many as
    the play; under a lock (``lock``), of the locked suits; the 3 of spades when the play
    is the 3 that beats a lone joker (``spade``)."""
    held = set(held)
    for card in named:
        if card not in held:
            return f"you do not hold the {card_name(card)}"
        if card_rank(card) != rank:
            return f"the {card_name(card)} is not of the rank played"
    if len(named) != count:
        return f"{len(named)} cards named for a play of {count}"
    if rank != JOKER and lock and suit_set(named) != lock:
        return f"the trick is locked to {suits_in_words(lock)} (suit_lock)"
    if spade and list(named) != [SPADE_THREE]:
        return "only the 3 of spades beats the lone joker (spade_three_return)"
    return None


def play_cards(
    held: Collection[int], lock: int, spade: bool, rank: int, count: int
) -> list[int] | None:
    """The cards a play of ``count`` cards of ``rank`` takes from the cards ``held`` when
    it names none (:func:`default_cards` unless a rule imposes them), or None when the
    suits do not allow it: the 3 that beats a lone joker (``spade``), the 3 of spades
    (and not under a lock to other suits); under a lock (``lock``), the locked suits
    (jokers follow them)."""
    if spade:
        return [SPADE_THREE] if SPADE_THREE in held and lock in (0, SPADES) else None
    if rank != JOKER and lock:
        chosen = [c for c in sorted(held) if card_rank(c) == rank and 1 << card_suit(c) & lock]
        return chosen if len(chosen) == count == lock.bit_count() else None
    if rank == JOKER and lock and count != lock.bit_count():
        return None
    chosen = default_cards(held, rank, count)
    return chosen if len(chosen) == count else None


def observed_play_cards(obs: Observed, rank: int, count: int) -> list[int] | None:
    """:func:`play_cards` for the player of an observation: the cards the engine lays
    for his plain play (the environment's action of a strategy's move)."""
    spade = spade_return(obs.rules.spade_three_return, rank, count, obs.top)
    return play_cards(obs.cards, obs.lock, spade, rank, count)


MIN_RUN = 3  # the shortest sequence


def run_cards(held: Iterable[int], run: Run) -> list[int] | None:
    """The cards of ``run`` from the cards ``held``, in rank order: his own card of each
    rank, else a joker standing in (None: he lacks a card and has no joker left for it,
    or would lay jokers only)."""
    held = set(held)
    jokers = sorted(held & set(JOKER_IDS))
    cards = []
    for rank in range(run.low, run.high + 1):
        card = 4 * rank + run.suit
        if card in held:
            cards.append(card)
        elif jokers:
            cards.append(jokers.pop(0))
        else:
            return None
    if len(cards) < MIN_RUN or run.high > TWO or all(card_rank(c) == JOKER for c in cards):
        return None
    return cards


def runs_of(held: Iterable[int]) -> list[Run]:
    """Every sequence the cards ``held`` can make, by length, then lowest rank, then suit
    (the engines' order of options)."""
    held = set(held)
    jokers = len(held & set(JOKER_IDS))
    runs = []
    for suit in range(4):
        for low in range(TWO + 1):
            missing = 0
            for high in range(low, TWO + 1):  # the sequence from low to high, growing
                missing += 4 * high + suit not in held
                if missing > jokers:
                    break
                length = high - low + 1
                if length >= MIN_RUN and missing < length:
                    runs.append(Run(low, length, suit))
    return sorted(runs, key=lambda run: (run.length, run.low, run.suit))


RUN_SHAPE = (
    "a play is 1 to 4 cards of one rank, or a sequence: 3 or more cards of one suit, each "
    "with its suit, in rank order (3 … 2), a joker JK in the place of the card it stands "
    'for, e.g. ["4S", "JK", "6S"]'
)


def run_of_names(texts: Sequence[object]) -> tuple[Run, tuple[int, ...]]:
    """A sequence written as its cards (``["4S", "JK", "6S"]``: in rank order, each joker
    in its place) and the card ids it names but its jokers; a CardError naming the shape
    when they are not one."""
    try:
        ids = [parse_suited_card(t) for t in texts]  # type: ignore[arg-type]
    except CardError:
        raise CardError(RUN_SHAPE) from None
    real = [(i, card) for i, card in enumerate(ids) if card_rank(card) != JOKER]
    lows = {card_rank(card) - i for i, card in real}
    suits = {card_suit(card) for _, card in real}
    if len(ids) < MIN_RUN or len(lows) != 1 or len(suits) != 1:
        raise CardError(RUN_SHAPE)
    low, suit = lows.pop(), suits.pop()
    if low < 0 or low + len(ids) - 1 > TWO or suit is None:
        raise CardError(RUN_SHAPE)
    return Run(low, len(ids), suit), tuple(card for _, card in real)


def why_not_run(held: Iterable[int], run: Run, named: Sequence[int]) -> str | None:
    """Why the cards ``named`` (its jokers aside) cannot be those of ``run`` laid from the
    cards ``held`` (None: they can, or none are named): his own card of each rank it
    covers, and no joker in the place of a card he holds."""
    laid = run_cards(held, run) or []
    own = [card for card in laid if card_rank(card) != JOKER]
    for card in named:
        if card not in own:
            return f"you do not hold the {card_name(card)}"
    for card in own:
        if named and card not in named:
            return f"you hold the {card_name(card)}: a joker stands in only for a card you lack"
    return None


class Suits:
    """The suits of one round: each seat's cards (``cards[s]``, card ids), the suits of the
    top on the table (``top``: a bit per suit, 0 when there is none or it is jokers
    only) and the suits the trick is locked to (``lock``, 0: none)."""

    def __init__(self, rules: Rules, cards: Sequence[Iterable[int]]) -> None:
        self.locks = rules.suit_lock == "suits"
        self.returns = rules.spade_three_return
        self.cards = [set(hand) for hand in cards]
        self.top = 0
        self.lock = 0

    def spade_return(self, rank: int, count: int, top: Top | None) -> bool:
        """:func:`spade_return` under this round's rules."""
        return spade_return(self.returns, rank, count, top)

    def cards_for(self, seat: int, rank: int, count: int, top: Top | None) -> list[int] | None:
        """:func:`play_cards` for ``seat``'s hand under this round's top and lock."""
        spade = self.spade_return(rank, count, top)
        return play_cards(self.cards[seat], self.lock, spade, rank, count)

    def run_cards(self, seat: int, run: Run) -> list[int] | None:
        """The cards ``run`` takes from ``seat``'s hand (:func:`run_cards`), or None when he
        cannot lay it: he lacks its cards, or the trick is locked to another suit."""
        if self.lock and self.lock != 1 << run.suit:
            return None
        return run_cards(self.cards[seat], run)

    def runs(self, seat: int) -> list[Run]:
        """The sequences ``seat`` can lay now (his cards, the lock), in the engines' order."""
        return [run for run in runs_of(self.cards[seat]) if self.lock in (0, 1 << run.suit)]

    def why_not(
        self, seat: int, rank: int, count: int, top: Top | None, named: list[int]
    ) -> str | None:
        """Why the cards ``named`` for a legal play of ``count`` cards of ``rank`` cannot be
        its cards (None: they can): :func:`why_not_cards` for ``seat``'s hand."""
        spade = self.spade_return(rank, count, top)
        return why_not_cards(self.cards[seat], self.lock, spade, rank, count, named)

    def why_not_gift(self, seat: int, laid: Sequence[int], named: Sequence[int]) -> str | None:
        """Why ``named`` cannot be the cards ``seat`` hands over after laying ``laid``
        (None: they can): each held, and not one of the cards laid."""
        for card in named:
            if card not in self.cards[seat] or card in laid:
                return f"you do not hold the {card_name(card)} after the play"
        return None

    def play(self, seat: int, cards: Sequence[int]) -> None:
        """``seat`` lays ``cards``: they leave his hand; two plays in a row of the same
        suits lock the trick (a play of jokers only follows the lock, or has no suits)."""
        self.cards[seat] -= set(cards)
        suits = suit_set(cards) or self.lock
        if self.locks and not self.lock and suits and suits == self.top:
            self.lock = suits
        self.top = suits

    def hand_over(
        self, seat: int, to: int | None, ranks: Sequence[int], named: Sequence[int] = ()
    ) -> list[int]:
        """The cards of ``ranks`` leave ``seat``'s hand (the ones ``named``, the default
        ones for the ranks they leave out: the jokers, which no name tells apart) for
        ``to`` (None: out of the round); returns them."""
        moved = list(named)
        rest = list(ranks)
        for card in named:
            rest.remove(card_rank(card))
        left = set(self.cards[seat]) - set(moved)
        for rank in rest:
            card = default_cards(left, rank, 1)[0]
            left.discard(card)
            moved.append(card)
        self.cards[seat] -= set(moved)
        if to is not None:
            self.cards[to] |= set(moved)
        return sorted(moved)

    def fall(self, seat: int) -> None:
        """``seat``'s cards leave the round (``capital_falls``)."""
        self.cards[seat] = set()

    def end_trick(self) -> None:
        """A new trick has no top and no lock."""
        self.top = 0
        self.lock = 0
