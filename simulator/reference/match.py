"""Whole matches on the reference engine: deal, exchange, rounds, roles, points.

This is the plain-Python twin of the kernel's match loop: it draws from the same
streams in the same order (see :mod:`simulator.reference.rng`), so it replays any kernel match
from its seed, move for move. Players are named by the seat they held at the start of
the match; ``seating[pos]`` is the player at table position ``pos`` in a round.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TypeVar

from simulator.reference.rng import PLAY_STREAM, Stream
from simulator.reference.round import Event, Move, Observation, Round
from simulator.rules.cards import JOKER_IDS, NUM_RANKS, THREE, counts_from_ids
from simulator.rules.hand_strength import hand_strength
from simulator.rules.options import Rules
from simulator.rules.roles import exchange_pairs, role_of

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
    hands, base = deal_cards(rules, stream, dealer, slots)
    club_pos = next(pos for pos, hand in enumerate(hands) if 0 in hand)
    return [counts_from_ids(h) for h in hands], [counts_from_ids(h) for h in base], club_pos


def best_cards(hand: Sequence[int], k: int) -> list[int]:
    """The ranks of the ``k`` best cards of a hand (normal order, jokers best)."""
    out: list[int] = []
    for rank in range(NUM_RANKS - 1, -1, -1):
        take = min(hand[rank], k - len(out))
        out += [rank] * take
    return out


class ExchangeError(ValueError):
    """A strategy gave back cards it does not hold, or the wrong number."""


def clubs_three_leads(rules: Rules, index: int) -> bool:
    """Whether the holder of the 3 of clubs leads round ``index`` (0: a match's first)."""
    rule = rules.clubs_three_opens
    return rule == "every_round" or (rule == "first_round" and index == 0)


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


class MoveAsk(NamedTuple):
    """A round's question: ``player`` must move in ``round`` (its player to move);
    answered with a :class:`Move`."""

    player: int
    round: Round

    @property
    def obs(self) -> Observation:
        """What the player to move sees."""
        return self.round.observation()


def run_steps(steps: Generator[Any, Any, T], answer: Callable[[Any], Any]) -> T:
    """Run a match's (or an exchange's) steps to the end, answering each question."""
    try:
        ask = next(steps)
        while True:
            ask = steps.send(answer(ask))
    except StopIteration as stop:
        return stop.value


def exchange_steps(
    rules: Rules, hands: list[list[int]], prev_places: Sequence[int], club: int = -1
) -> Generator[GiveBack, list[int], int]:
    """:func:`exchange` as steps: yields each give-back it needs, ``(who, hand, k,
    opens)``, and is sent the ranks given back; returns where the 3 of clubs is. The
    environment of :mod:`simulator.env` asks its agents through it."""
    n = len(hands)
    by_place = {place: who for who, place in enumerate(prev_places)}
    for i, k in exchange_pairs(rules):
        better, worse = by_place[i], by_place[n + 1 - i]
        for rank in best_cards(hands[worse], k):
            hands[worse][rank] -= 1
            hands[better][rank] += 1
        if club == worse and hands[worse][THREE] == 0:
            club = better
        opens = club == better and rules.clubs_three_opens == "every_round"
        back = yield GiveBack(better, list(hands[better]), k, opens)
        check = list(hands[better])
        for rank in back:
            if not 0 <= rank < NUM_RANKS or check[rank] == 0:
                raise ExchangeError(f"player {better} gave back a card it does not hold: {back}")
            check[rank] -= 1
        if len(back) != k:
            raise ExchangeError(f"player {better} gave back {len(back)} cards instead of {k}")
        for rank in back:
            hands[better][rank] -= 1
            hands[worse][rank] += 1
        if club == better and hands[better][THREE] == 0:
            club = worse
    return club


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

    def answer(ask: GiveBack | MoveAsk) -> list[int] | Move:
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
) -> Generator[GiveBack | MoveAsk, list[int] | Move, MatchRecord]:
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
        by_pos, base, club_pos = shuffle_deal(rules, deal_rng, dealer, slots)
        hands = [by_pos[_position_of(seating, p)] for p in range(n)]
        dealt = [list(h) for h in hands]
        if observer:
            observer("deal", dealt)
        strength = [hand_strength(base[_position_of(seating, p)]) for p in range(n)]
        clubs = rules.clubs_three_opens
        club = seating[club_pos] if clubs != "off" else -1
        roles: tuple[str, ...] = ()
        if r == 0:
            leader = club_pos if clubs != "off" else (dealer + 1) % n
        else:
            club = yield from exchange_steps(rules, hands, prev_places, club)
            if clubs == "every_round":
                leader = _position_of(seating, club)
            else:
                leader = opening_position(rules, seating, prev_places, dealer)
            roles = tuple(role_of(prev_places[p], n) for p in seating)
        rnd = Round(rules, [hands[p] for p in seating], leader, roles)
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
            move = yield MoveAsk(seating[pos], rnd)
            gift: list[int] = []
            if rnd.owes(move) and rnd.why_illegal(pos, move) is None:
                gift = yield hand_over_ask(rnd, move, seating)
                record.gifts.append((len(record.moves), list(gift)))
            events = rnd.apply(move, gift=gift)
            record.moves.append((seating[pos], move))
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
