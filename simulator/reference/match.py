"""Whole matches on the reference engine: deal, exchange, rounds, roles, points.

This is the plain-Python twin of the kernel's match loop: it draws from the same
streams in the same order (see :mod:`simulator.reference.rng`), so it replays any kernel match
from its seed, move for move. Players are named by the seat they held at the start of
the match; ``seating[pos]`` is the player at table position ``pos`` in a round.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, TypeVar

from simulator.reference.exchange import (
    GiveBack,
    clubs_three_leads,
    exchange_steps,
    give_back_of,
    holder,
    run_steps,
)
from simulator.reference.moves import Named
from simulator.reference.rng import PLAY_STREAM, Stream
from simulator.reference.round import Event, Move, Observation, Round
from simulator.rules.cards import CLUBS_THREE, JOKER_IDS, counts_from_ids
from simulator.rules.hand_strength import hand_strength
from simulator.rules.options import Rules
from simulator.rules.roles import role_of

T = TypeVar("T")
MAX_ROUNDS = 1000  # a match under a target is cut here by default (it could tie forever)


@dataclass
class RoundRecord:
    """What happened in one round of a match (players indexed by starting seat)."""

    index: int
    seating: list[int]  # seating[pos] = player
    dealer: int  # player who dealt
    leader: int  # player who led the first trick
    club: int  # player holding the 3 of clubs after the exchange (-1: not followed)
    dealt: list[list[int]]  # hands by player as dealt, before the exchange
    strength: list[int]  # by player: the dealt-hand strength of his base hand
    hands: list[list[int]]  # hands by player after the exchange
    places: list[int]  # by player
    points: list[int]  # by player, this round
    totals: list[int]  # by player, after this round
    tricks: int = 0
    plays: int = 0
    passes: int = 0
    skips: int = 0
    moves: list[tuple[int, Move]] = field(default_factory=list)  # (player, move)
    gifts: list[tuple[int, list[int]]] = field(default_factory=list)  # (move's index, ranks)
    laid: list[tuple[int, ...]] = field(default_factory=list)  # card ids by move (suits read)
    events: list[Event] = field(default_factory=list)  # seats in events are positions


@dataclass
class MatchRecord:
    """A whole match: its rounds and, under a target, the winner."""

    rounds: list[RoundRecord]
    winner: int = -1  # player, -1 when no target (or the match was cut)


def deal_cards(
    rules: Rules, stream: Stream, dealer: int, slots: Sequence[int] | None = None
) -> tuple[list[list[int]], list[list[int]]]:
    """Shuffle the deck of card ids with ``stream`` and deal it: ``(hands, base hands)``
    by position, each a list of card ids in the order dealt.

    The deck is the card ids in order (:mod:`simulator.rules.cards`), the jokers last, and
    is shuffled by Fisher–Yates, step ``i`` swapping the cards at ``i`` and ``i +
    below(size − i)``. Base hand k (the cards ``i < n·⌊D/n⌋`` with ``i mod n = k``) goes
    to position ``slots[k]`` — by default ``dealer + 1 + k``, the rules' deal one card at
    a time from the dealer's left — and the ``D mod n`` leftover cards one each from the
    dealer's left.
    """
    n = rules.players
    deck = list(range(52)) + list(JOKER_IDS[: rules.jokers])
    size = len(deck)
    for i in range(size - 1):
        j = i + stream.below(size - i)
        deck[i], deck[j] = deck[j], deck[i]
    if slots is None:
        slots = [(dealer + 1 + k) % n for k in range(n)]
    full = size - size % n
    hands: list[list[int]] = [[] for _ in range(n)]
    for i, card in enumerate(deck[:full]):
        hands[slots[i % n]].append(card)
    base = [list(h) for h in hands]
    for i, card in enumerate(deck[full:]):
        hands[(dealer + 1 + i) % n].append(card)
    return hands, base


def shuffle_deal(
    rules: Rules, stream: Stream, dealer: int, slots: Sequence[int] | None = None
) -> tuple[list[list[int]], list[list[int]], int]:
    """:func:`deal_cards` as Président's engines see it: ``(hands, base hands)`` by
    position as rank counts, and the position dealt the 3 of clubs (card 0). Suits never
    change the shuffle, so the hands are the same whatever ``clubs_three_opens`` says."""
    return ranks_of_deal(*deal_cards(rules, stream, dealer, slots), rules.opening_card)


def ranks_of_deal(
    hands: list[list[int]], base: list[list[int]], card: int = CLUBS_THREE
) -> tuple[list[list[int]], list[list[int]], int]:
    """A deal of card ids (:func:`deal_cards`) as rank counts: ``(hands, base hands,
    the position dealt the card id ``card``)``, the 3 that opens (``opening_three``)."""
    club_pos = holder(hands, card)
    return [counts_from_ids(h) for h in hands], [counts_from_ids(h) for h in base], club_pos


class MoveAsk(NamedTuple):
    """A round's question: ``player`` must move in ``round`` (its player to move);
    answered with a :class:`Move`, or a :class:`Named` play
    choosing its cards (rules that read suits)."""

    player: int
    round: Round

    @property
    def obs(self) -> Observation:
        """What the player to move sees."""
        return self.round.observation()


def _position_of(seating: Sequence[int], player: int) -> int:
    return seating.index(player)


def next_seating(rules: Rules, seating: list[int], prev_places: Sequence[int]) -> list[int]:
    """Reseat by finishing order under ``reseat``; otherwise nobody moves."""
    if not rules.reseat:
        return seating
    return sorted(range(rules.players), key=lambda player: prev_places[player])


def next_dealer(
    rules: Rules, seating: Sequence[int], prev_places: Sequence[int], prev_dealer: int
) -> int:
    """The dealer's position from round 2 on (``dealer`` rule)."""
    n = rules.players
    if rules.dealer == "rotate":
        return (_position_of(seating, prev_dealer) + 1) % n
    place = 1 if rules.dealer == "president" else n
    return _position_of(seating, prev_places.index(place))


def opening_position(
    rules: Rules, seating: Sequence[int], prev_places: Sequence[int], dealer: int
) -> int:
    """Who leads from round 2 on (``opener`` rule), as a position."""
    n = rules.players
    if rules.opener == "left_of_dealer":
        return (dealer + 1) % n
    place = 1 if rules.opener == "president" else n
    return _position_of(seating, prev_places.index(place))


def leader_alone(totals: Sequence[int]) -> int:
    """The player with the best total alone, or -1 when several share it."""
    best = max(totals)
    return totals.index(best) if list(totals).count(best) == 1 else -1


def hand_over_ask(rnd: Round, move: Move, seating: Sequence[int]) -> GiveBack:
    """The question a play of 7s or 10s puts to its player (legal, and obliging him:
    :meth:`Round.owes`): which cards of the hand left after it he hands over."""
    pos = rnd.turn
    hand = list(rnd.hands[pos])
    hand[move.rank] -= move.count
    to = rnd.receiver(pos, move.rank)
    kind, player = ("discard", -1) if to is None else ("give", seating[to])
    return GiveBack(seating[pos], hand, rnd.owes(move), False, kind, player)


def match_over(totals: Sequence[int], reached: bool) -> bool:
    """Under a target: the target was reached and one player leads alone."""
    return reached and leader_alone(totals) >= 0


def play_match(
    rules: Rules,
    players: Sequence,
    seed: int,
    match: int,
    rounds: int | None = None,
    max_rounds: int = MAX_ROUNDS,
    keep_events: bool = False,
    observer: Callable[[str, object], None] | None = None,
    deal_match: int | None = None,
    hand_frame: Callable[[int, int], int] | None = None,
    seat_streams: bool = False,
) -> MatchRecord:
    """Play match ``match`` of a run seeded ``seed``.

    ``players[p]`` is the plain-Python strategy of the player who starts at seat p.
    With ``rules.target == 0`` the match lasts ``rounds`` rounds; under a target it lasts
    until the target rule ends it, cut at ``max_rounds``. Duplicate deals
    (:func:`simulator.matchloop.seating.reference_options` gives these three):
    ``deal_match`` takes the deals of another match, by default a match's own;
    ``hand_frame(slot, first_dealer)`` names the player who receives base hand ``slot``
    (by default the rules' deal from the dealer's left); ``seat_streams`` gives every
    player his seat's own play stream of the deal match instead of the match's shared one.

    ``observer(kind, payload)``, when given, follows the match as it is played (for
    interactive play and logs): ``("deal", dealt)`` with the dealt hands by player,
    before the exchange (a person giving back is told what he received);
    ``("round_start", record)`` after the deal and the exchange;
    ``("events", (round_state, events))`` after each move (the :class:`Round`; seats in
    events are table positions); ``("round_end", record)`` once places and points are known.
    """
    n = rules.players
    if len(players) != n:
        raise ValueError(f"{len(players)} strategies for {n} players")
    deals = match if deal_match is None else deal_match
    shared = Stream.of(seed, match, PLAY_STREAM)
    rngs = [Stream.of_seat(seed, deals, p) if seat_streams else shared for p in range(n)]

    def answer(ask: GiveBack | MoveAsk) -> list[int] | Move | Named:
        if isinstance(ask, GiveBack):
            return give_back_of(players[ask.who], ask.hand, ask.k, rngs[ask.who], ask.opens, ask)
        return players[ask.player].choose(ask.obs, rngs[ask.player])

    steps = match_steps(
        rules, seed, match, rounds, max_rounds, keep_events, observer, deal_match, hand_frame
    )
    return run_steps(steps, answer)


def match_steps(
    rules: Rules,
    seed: int,
    match: int,
    rounds: int | None = None,
    max_rounds: int = MAX_ROUNDS,
    keep_events: bool = False,
    observer: Callable[[str, object], None] | None = None,
    deal_match: int | None = None,
    hand_frame: Callable[[int, int], int] | None = None,
) -> Generator[GiveBack | MoveAsk, list[int] | Move | Named, MatchRecord]:
    """:func:`play_match` as steps, without its players: yields each decision the match
    needs (a :class:`GiveBack` or a :class:`MoveAsk`), is sent the answer, and returns
    the :class:`MatchRecord`. One match loop for the strategies of :func:`play_match`
    and the agents of the environment of :mod:`simulator.env`; the arguments are
    :func:`play_match`'s."""
    n = rules.players
    limit = rounds if rules.target == 0 else max_rounds
    if limit is None or limit < 1:
        raise ValueError("a match needs at least one round")
    deals = match if deal_match is None else deal_match
    seating = list(range(n))
    totals = [0] * n
    records: list[RoundRecord] = []
    prev_places: list[int] = []
    dealer_player = first_dealer = -1
    reached = False
    winner = -1
    for r in range(limit):
        deal_rng = Stream.of(seed, deals, r + 1)
        if r == 0:
            dealer = first_dealer = deal_rng.below(n)
        else:
            seating = next_seating(rules, seating, prev_places)
            dealer = next_dealer(rules, seating, prev_places, dealer_player)
        dealer_player = seating[dealer]
        slots = None
        if hand_frame is not None:
            slots = [_position_of(seating, hand_frame(k, first_dealer)) for k in range(n)]
        ids, base_ids = deal_cards(rules, deal_rng, dealer, slots)
        by_pos, base, club_pos = ranks_of_deal(ids, base_ids, rules.opening_card)
        hands = [by_pos[_position_of(seating, p)] for p in range(n)]
        cards = [set(ids[_position_of(seating, p)]) for p in range(n)] if rules.suited else None
        dealt = [list(h) for h in hands]
        if observer:
            observer("deal", dealt)
        strength = [hand_strength(base[_position_of(seating, p)]) for p in range(n)]
        followed = clubs_three_leads(rules, 0)  # the 3 of clubs leads a round: followed
        club = seating[club_pos] if followed else -1
        roles: tuple[str, ...] = ()
        if r == 0:
            leader = club_pos if followed else (dealer + 1) % n
        else:
            club = yield from exchange_steps(rules, hands, prev_places, club, cards)
            if clubs_three_leads(rules, r):
                leader = _position_of(seating, club)
            else:
                leader = opening_position(rules, seating, prev_places, dealer)
            roles = tuple(role_of(prev_places[p], n) for p in seating)
        seated = [sorted(cards[p]) for p in seating] if cards is not None else None
        rnd = Round(rules, [hands[p] for p in seating], leader, roles, seated)
        record = RoundRecord(
            r,
            list(seating),
            dealer_player,
            seating[leader],
            club,
            dealt,
            strength,
            [list(h) for h in hands],
            [],
            [],
            [],
        )
        if observer:
            observer("round_start", record)
        while not rnd.over:
            pos = rnd.turn
            answer = yield MoveAsk(seating[pos], rnd)
            move, named = answer if isinstance(answer, Named) else (answer, ())
            gift: list[int] = []
            if rnd.owes(move) and rnd.why_illegal(pos, move, named) is None:
                gift = yield hand_over_ask(rnd, move, seating)
                record.gifts.append((len(record.moves), list(gift)))
            events = rnd.apply(move, gift=gift, cards=named)
            record.moves.append((seating[pos], move))
            record.laid.append(events[0].cards if events[0].ids else ())
            if keep_events:
                record.events += events
            if observer:
                observer("events", (rnd, events))
        places = [rnd.places[_position_of(seating, p)] for p in range(n)]
        points = [rules.points.for_place(pl, n) for pl in places]
        totals = [t + x for t, x in zip(totals, points, strict=True)]
        record.places, record.points, record.totals = places, points, list(totals)
        record.tricks, record.plays = rnd.tricks, rnd.plays
        record.passes, record.skips = rnd.passes, rnd.skips
        records.append(record)
        if observer:
            observer("round_end", record)
        prev_places = places
        if rules.target:
            reached = reached or max(totals) >= rules.target
            if match_over(totals, reached):
                winner = leader_alone(totals)
                break
    return MatchRecord(records, winner)
