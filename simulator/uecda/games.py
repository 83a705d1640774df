"""The games of a UECda tournament on our reference engine, without the network: seats,
classes, the deal, the exchange card by card, one :class:`~simulator.reference.round.Round`
per game, and the tables each player is sent.

The UECda server ``tndhm`` (``src/server/server.cc`` of ``YuriCat/FujiGokoroUECda``)
draws the seats again every :data:`SEAT_CYCLE` games and forgets the classes every
:data:`CLASS_CYCLE` games; a block of games between two such resets is one *match* of our
run folder (its first game has no exchange, as a match's first round), and a game is a
round. The players are numbered by the order they connected: player ``p`` is seat ``p``
of the run folder, and ``seating[pos]`` is the player at table position ``pos`` in a game
(the order of play). The rules are the ``uecda`` preset: the lower classes give their
best cards, the upper ones give back cards of their choice (tndhm gives back the best ones
for a choice that is not ``k`` cards of the hand), and the holder of the 3 of diamonds
leads every game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from simulator.reference.exchange import best_cards, holder
from simulator.reference.match import RoundRecord, deal_cards
from simulator.reference.moves import Event, Move, Named, Run
from simulator.reference.rng import Stream
from simulator.reference.round import Round
from simulator.reference.suits import default_cards
from simulator.rules.cards import counts_from_ids
from simulator.rules.hand_strength import hand_strength
from simulator.rules.options import Rules
from simulator.rules.roles import exchange_pairs, role_of
from simulator.uecda import protocol as P

SEAT_CYCLE = 3  # tndhm: RULE_SEKIGAE_NUM, seats drawn again at games 1, 4, 7, …
CLASS_CYCLE = 100  # tndhm: FLASH_MIBUN_NUMBER, classes forgotten every 100 games
SEAT_STREAM = 1 << 62  # the purpose of the stream that draws the seats (rng.py's scheme)


def draw_seats(seed: int, game: int, n: int) -> list[int]:
    """The players in the order of play from game ``game`` on (Fisher–Yates on a stream
    of its own, so the seats never depend on the play)."""
    stream = Stream.of(seed, game, SEAT_STREAM)
    order = list(range(n))
    for i in range(n - 1):
        j = i + stream.below(n - i)
        order[i], order[j] = order[j], order[i]
    return order


@dataclass
class Game:
    """One game: its deal, its exchange, then its round (``rnd``, seats are positions).

    ``cards[p]`` are player p's card ids; ``prev_places[p]`` his place in the block's
    previous game (empty in a block's first game); ``stage`` the cards shown on the table
    (a play's, kept through the passes that follow it until the trick ends)."""

    rules: Rules
    match: int
    index: int
    seating: list[int]
    prev_places: list[int]
    cards: list[set[int]]
    dealer: int
    dealt: list[list[int]]
    strength: list[int]
    gives: list[tuple[int, int, int]] = field(default_factory=list)  # (rich, poor, k)
    rnd: Round | None = None
    stage: list[int] = field(default_factory=list)
    stage_move: Move | Run | None = None
    leader: int = -1

    @property
    def n(self) -> int:
        return self.rules.players

    def pos(self, player: int) -> int:
        return self.seating.index(player)

    # ------------------------------------------------------------ the exchange

    def classes(self) -> list[int]:
        """Each player's class, 0 (daifugō) … n − 1; all 0 in a block's first game."""
        return [p - 1 for p in self.prev_places] if self.prev_places else [0] * self.n

    def exchange_table(self, player: int, before_gift: Sequence[int]) -> P.Table:
        """The game's first message to ``player``: his hand (a poor player's as dealt,
        before his gift, as tndhm sends it), and how many cards he gives back."""
        table = P.hand_table(before_gift)
        status = table[P.STATUS]
        status[P.IN_EXCHANGE], status[P.TURN] = 1, P.NO_TURN
        status[P.TO_GIVE] = next((k for rich, _, k in self.gives if rich == player), 0)
        self._players_row(table, [len(c) for c in self.cards])
        return table

    def give_back(self, rich: int, chosen: Sequence[int] | None) -> bool:
        """``rich`` gives back ``chosen`` (card ids) to his partner; a choice that is not
        exactly his ``k`` cards gives his best ``k`` instead. Whether the choice stood."""
        _, poor, k = next(g for g in self.gives if g[0] == rich)
        held = self.cards[rich]
        ok = chosen is not None and len(set(chosen)) == len(chosen) == k and set(chosen) <= held
        cards = list(chosen) if ok and chosen is not None else best_ids(held, k)
        self.cards[rich] -= set(cards)
        self.cards[poor] |= set(cards)
        return ok

    # ------------------------------------------------------------ the round

    def begin(self) -> None:
        """The round, once the exchange is done: the 3 of diamonds leads."""
        self.leader = holder(self.cards, self.rules.opening_card)
        by_pos = [sorted(self.cards[p]) for p in self.seating]
        roles = (
            [role_of(self.prev_places[p], self.n) for p in self.seating] if self.prev_places else []
        )
        self.rnd = Round(
            self.rules, [counts_from_ids(h) for h in by_pos], self.pos(self.leader), roles, by_pos
        )

    @property
    def round(self) -> Round:
        assert self.rnd is not None, "the round begins after the exchange"
        return self.rnd

    @property
    def turn_player(self) -> int:
        return self.seating[self.round.turn]

    def turn_table(self, player: int) -> P.Table:
        """What ``player`` is sent before each move: his hand and the state of play."""
        rnd = self.round
        table = P.hand_table(rnd.suits.cards[self.pos(player)] if rnd.suits else ())
        self._status(table, self.turn_player)
        table[P.STATUS][P.MY_TURN] = int(player == self.turn_player)
        return table

    def why_illegal(self, move: Move | Run | Named) -> str | None:
        """The rule a move of the player to move breaks (None: legal)."""
        plain, named = (move.move, move.cards) if isinstance(move, Named) else (move, ())
        return self.round.why_illegal(self.round.turn, plain, named)

    def fallback(self) -> Move | Run:
        """The move of a player out of tries: the pass, or the first legal play when he
        leads (a leader may not pass)."""
        return self.round.legal_moves()[-1 if self.round.top is not None else 0]

    def apply(self, move: Move | Run | Named) -> list[Event]:
        """Play a legal move of the player to move; the stage shows its cards."""
        rnd = self.round
        plain, named = (move.move, move.cards) if isinstance(move, Named) else (move, ())
        if rnd.top is None:
            self.stage, self.stage_move = [], None
        events = rnd.apply(plain, cards=named)
        if not plain.is_pass:
            self.stage, self.stage_move = list(events[0].cards), plain
        return events

    def stage_table(self, mover: int) -> P.Table:
        """What every player is sent after a move: the cards on the table, who moved."""
        move = self.stage_move
        table = P.empty() if move is None else P.play_table(move, self.stage, self.round.reversed)
        self._status(table, mover)
        table[P.STATUS][P.EMPTY] = int(move is None)
        return table

    def _status(self, table: P.Table, turn: int) -> None:
        rnd = self.round
        status = table[P.STATUS]
        status[P.TURN] = turn
        status[P.EMPTY] = int(rnd.top is None)
        status[P.REVERSED] = int(rnd.reversed)
        status[P.LOCK] = int(bool(rnd.suits and rnd.suits.lock))
        self._players_row(table, [rnd.cards_left[self.pos(p)] for p in range(self.n)])

    def _players_row(self, table: P.Table, counts: Sequence[int]) -> None:
        row, classes = table[P.PLAYERS], self.classes()
        for p in range(self.n):
            row[P.COUNTS + p] = counts[p]
            row[P.CLASSES + p] = classes[p]
            row[P.SEATS + p] = self.seating[p]

    def record(self, totals: Sequence[int]) -> RoundRecord:
        """The finished game as a round of the run folder (players by number)."""
        rnd, n = self.round, self.n
        places = [rnd.places[self.pos(p)] for p in range(n)]
        points = [self.rules.points.for_place(pl, n) for pl in places]
        rec = RoundRecord(
            self.index,
            list(self.seating),
            self.dealer,
            self.leader,
            self.leader,
            self.dealt,
            self.strength,
            [counts_from_ids(c) for c in self.cards],
            places,
            points,
            [t + x for t, x in zip(totals, points, strict=True)],
        )
        rec.tricks, rec.plays, rec.passes, rec.skips = rnd.tricks, rnd.plays, rnd.passes, rnd.skips
        return rec


def best_ids(held: set[int], k: int) -> list[int]:
    """The card ids of the ``k`` best cards of a hand, each rank's lowest suits first
    (the exchange of the reference engine, :mod:`simulator.reference.exchange`)."""
    out: list[int] = []
    left = set(held)
    for rank in best_cards(counts_from_ids(held), k):
        card = default_cards(left, rank, 1)[0]
        left.discard(card)
        out.append(card)
    return out


def new_game(
    rules: Rules, seed: int, game: int, seating: list[int], prev_places: list[int]
) -> tuple[Game, list[list[int]]]:
    """Deal game ``game`` (from 0) and make the lower classes' gifts: the game, and each
    player's hand as he is first shown it (tndhm shows the poor their hands before their
    gift, the others after it). Deals come from the run's streams as a match's rounds do
    (:func:`simulator.reference.match.deal_cards`): the daifugō, or a drawn player in a
    block's first game, is dealt to first and gets one of the longer hands."""
    n = rules.players
    match, index = divmod(game, CLASS_CYCLE)
    stream = Stream.of(seed, match, index + 1)
    first = prev_places.index(1) if prev_places else seating[stream.below(n)]
    dealer = (seating.index(first) - 1) % n
    ids, base = deal_cards(rules, stream, dealer)
    cards = [set(ids[seating.index(p)]) for p in range(n)]
    dealt = [counts_from_ids(c) for c in cards]
    strength = [hand_strength(counts_from_ids(base[seating.index(p)])) for p in range(n)]
    g = Game(rules, match, index, seating, prev_places, cards, seating[dealer], dealt, strength)
    shown = [sorted(c) for c in cards]
    if prev_places:
        by_place = {place: p for p, place in enumerate(prev_places)}
        for i, k in exchange_pairs(rules):
            rich, poor = by_place[i], by_place[n + 1 - i]
            gift = best_ids(cards[poor], k)
            cards[poor] -= set(gift)
            cards[rich] |= set(gift)
            g.gives.append((rich, poor, k))
        poor_players = {poor for _, poor, _ in g.gives}
        shown = [shown[p] if p in poor_players else sorted(cards[p]) for p in range(n)]
    return g, shown
