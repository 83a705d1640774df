"""The card exchange on the reference engine, and the questions a match asks its players.

From round 2 on, the i-th worst player gives his k best cards to the i-th best, who gives
k cards of his choice back (docs/rules.md, ``exchange``); a match asks that give-back,
and each move, as a question (:class:`GiveBack`, ``MoveAsk`` in
:mod:`simulator.reference.match`) that :func:`run_steps` answers. Under rules that read
suits the cards behind the ranks move too, and the 3 of clubs is followed exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Sequence
from typing import Any, NamedTuple, TypeVar

from simulator.reference.rng import Stream
from simulator.reference.suits import default_cards
from simulator.rules.cards import NUM_RANKS, THREE
from simulator.rules.options import Rules
from simulator.rules.roles import exchange_pairs

T = TypeVar("T")


def clubs_three_leads(rules: Rules, index: int) -> bool:
    """Whether the holder of the 3 of clubs leads round ``index`` (0: a match's first)."""
    rule = rules.clubs_three_opens
    return rule == "every_round" or (rule == "first_round" and index == 0)


def holder(cards: Sequence[Iterable[int]], card: int) -> int:
    """Who holds card id ``card`` (-1: nobody)."""
    return next((who for who, held in enumerate(cards) if card in held), -1)


def best_cards(hand: Sequence[int], k: int) -> list[int]:
    """The ranks of the ``k`` best cards of a hand (normal order, jokers best)."""
    out: list[int] = []
    for rank in range(NUM_RANKS - 1, -1, -1):
        take = min(hand[rank], k - len(out))
        out += [rank] * take
    return out


class ExchangeError(ValueError):
    """A strategy gave back cards it does not hold, or the wrong number."""


def exchange(
    rules: Rules,
    hands: list[list[int]],
    prev_places: Sequence[int],
    give_back: Callable[..., list[int]],
    club: int = -1,
) -> int:
    """The card exchange, in place on ``hands`` (indexed like ``prev_places``).

    For pair i (1-based) with 2·i ≤ n: the i-th worst gives his k best cards to the
    i-th best, who then gives back k cards of his choice: ``give_back(who, hand, k)``,
    called with ``opens=True`` too when ``who`` holds the 3 of clubs and it opens the
    round (``clubs_three_opens = "every_round"``). ``club`` is the player holding the
    3 of clubs (-1: not followed); it moves with its holder's last 3, forced gift or
    give-back alike. Returns where it is after the exchange.
    """

    def answer(ask: GiveBack) -> list[int]:
        if ask.opens:
            return give_back(ask.who, ask.hand, ask.k, opens=True)
        return give_back(ask.who, ask.hand, ask.k)

    return run_steps(exchange_steps(rules, hands, prev_places, club), answer)


class GiveBack(NamedTuple):
    """An exchange's question: ``who`` gives back ``k`` cards from ``hand`` (``opens``:
    the 3 of clubs he holds opens the round); answered with the ranks given back. Asked
    too in a round, right after a play of 7s or 10s that obliges its player to hand
    cards over (``hands_over``: ``"give"`` to the player ``to``, or ``"discard"``)."""

    who: int
    hand: list[int]
    k: int
    opens: bool
    hands_over: str = ""
    to: int = -1


def run_steps(steps: Generator[Any, Any, T], answer: Callable[[Any], Any]) -> T:
    """Run a match's (or an exchange's) steps to the end, answering each question."""
    try:
        ask = next(steps)
        while True:
            ask = steps.send(answer(ask))
    except StopIteration as stop:
        return stop.value


def exchange_steps(
    rules: Rules,
    hands: list[list[int]],
    prev_places: Sequence[int],
    club: int = -1,
    cards: list[set[int]] | None = None,
) -> Generator[GiveBack, list[int], int]:
    """:func:`exchange` as steps: yields each give-back it needs, ``(who, hand, k,
    opens)``, and is sent the ranks given back; returns where the 3 of clubs is. The
    environment of :mod:`simulator.env` asks its agents through it. Under rules that
    read suits, ``cards`` (card ids by player) change with the hands, each rank's lowest
    suits leaving first (:func:`~simulator.reference.suits.default_cards`), and the 3 of
    clubs is followed exactly."""
    n = len(hands)
    by_place = {place: who for who, place in enumerate(prev_places)}
    for i, k in exchange_pairs(rules):
        better, worse = by_place[i], by_place[n + 1 - i]
        club = _pass_cards(
            hands, cards, worse, better, best_cards(hands[worse], k), club, rules.opening_card
        )
        opens = club == better and clubs_three_leads(rules, 1)  # it opens every round
        back = yield GiveBack(better, list(hands[better]), k, opens)
        check = list(hands[better])
        for rank in back:
            if not 0 <= rank < NUM_RANKS or check[rank] == 0:
                raise ExchangeError(f"player {better} gave back a card it does not hold: {back}")
            check[rank] -= 1
        if len(back) != k:
            raise ExchangeError(f"player {better} gave back {len(back)} cards instead of {k}")
        club = _pass_cards(hands, cards, better, worse, back, club, rules.opening_card)
    return club


def _pass_cards(
    hands: list[list[int]],
    cards: list[set[int]] | None,
    giver: int,
    to: int,
    ranks: Sequence[int],
    club: int,
    opening: int,
) -> int:
    """The cards of ``ranks`` go from ``giver`` to ``to`` (each rank's lowest suit, when
    the cards are followed: ``cards`` not None). Returns where the 3 of clubs (the card
    id ``opening``: ``opening_three``) is (-1: not followed): with the card itself when the
    cards are followed, else with its holder's last 3."""
    for rank in ranks:
        hands[giver][rank] -= 1
        hands[to][rank] += 1
        if cards is not None:
            card = default_cards(cards[giver], rank, 1)[0]
            cards[giver].remove(card)
            cards[to].add(card)
    if club < 0:
        return club
    if cards is not None:
        return holder(cards, opening)
    return to if club == giver and hands[giver][THREE] == 0 else club


def give_back_of(
    strategy: Any, hand: list[int], k: int, rng: Stream, opens: bool, ask: GiveBack | None = None
) -> list[int]:
    """A strategy's give-back; only one that sets ``reads_club_three`` is told (``opens``)
    that its hand holds the 3 of clubs that opens the round. The cards handed over after
    7s or 10s (``ask.hands_over``) are its give-back too, but for a strategy with a
    ``hand_over(hand, k, rng, ask)`` method (a person at the play screen, told why)."""
    if ask is not None and ask.hands_over and hasattr(strategy, "hand_over"):
        return strategy.hand_over(hand, k, rng, ask)
    if opens and getattr(strategy, "reads_club_three", False):
        return strategy.give_back(hand, k, rng, opens=True)
    return strategy.give_back(hand, k, rng)
