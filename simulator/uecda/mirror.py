"""What a UECda client knows of the game under way, from the tables it is sent, as the
:class:`~simulator.reference.observation.Observation` our strategies read.

A client sees its own cards, every player's number of cards, the cards on the table and
the state of play (revolution, lock, an empty trick). It follows the rest from the tables
of the cards on the table sent after each move: a table showing the same cards as before
is the mover's pass, another one his play (counted as played). At its turn it builds a
:class:`~simulator.reference.round.Round` in that position — its own cards for its seat,
cards it cannot see for the others — so the legal moves, and which cards a play lays,
are the reference engine's own.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from simulator.reference.moves import PASS, Move, Named, Run, Top
from simulator.reference.rng import Stream
from simulator.reference.round import Round
from simulator.reference.suits import MIN_RUN, default_cards, suit_set
from simulator.rules.cards import JOKER, NUM_RANKS, TWO, card_rank, counts_from_ids
from simulator.rules.options import Rules
from simulator.rules.roles import role_of
from simulator.uecda import protocol as P


@dataclass
class Mirror:
    """The game as player ``me`` follows it (seats of the :class:`Round` are positions in
    the order of play; players are the server's numbers)."""

    rules: Rules
    me: int
    played: list[int] = field(default_factory=lambda: [0] * NUM_RANKS)
    laid: set[int] = field(default_factory=set)  # the cards laid this round (ids)
    passed: set[int] = field(default_factory=set)  # players who passed in this trick
    stage: P.Table = field(default_factory=P.empty)
    top: Move | Run | None = None
    owner: int = -1
    top_suits: int = 0
    lock: int = 0

    def on_turn_table(self, table: P.Table) -> None:
        """Before each move: an empty trick forgets the last one."""
        if table[P.STATUS][P.EMPTY]:
            self.passed.clear()
            self.top, self.owner, self.top_suits, self.lock = None, -1, 0, 0
            self.stage = P.empty()

    def on_stage(self, table: P.Table) -> None:
        """After each move: the mover passed (the same cards) or laid the cards shown."""
        mover = table[P.STATUS][P.TURN]
        if P.same_cards(table, self.stage):
            self.passed.add(mover)
            return
        cards = P.laid_cards(table)
        self.top = stage_top(table)
        self.owner = mover
        for card in cards:
            self.played[card_rank(card)] += 1
        self.laid.update(cards)
        self.top_suits = suit_set(cards) or self.lock
        self.lock = self.top_suits if table[P.STATUS][P.LOCK] else 0
        self.stage = [list(row) for row in table]

    def position(self, table: P.Table) -> tuple[Round, int]:
        """The round as the reference engine would hold it at ``me``'s turn, and his seat."""
        n = self.rules.players
        seating = [table[P.PLAYERS][P.SEATS + s] for s in range(n)]
        counts = [table[P.PLAYERS][P.COUNTS + p] for p in range(n)]
        mine = P.hand_cards(table)
        seat = seating.index(self.me)
        deck = range(4 * JOKER + self.rules.jokers)
        unseen = [card for card in deck if card not in self.laid and card not in mine]
        hands, cards = [], []
        for p in seating:
            if p == self.me:
                hands.append(counts_from_ids(mine))
                cards.append(mine)
            else:  # cards it cannot see: their number, and which are out there together
                hands.append([counts[p]] + [0] * (NUM_RANKS - 1))
                cards.append(unseen[: counts[p]])
                unseen = unseen[counts[p] :]
        classes = [table[P.PLAYERS][P.CLASSES + p] for p in seating]
        roles = [role_of(c + 1, n) for c in classes] if len(set(classes)) > 1 else []
        rnd = Round(self.rules, hands, seat, roles, cards)
        rnd.reversed = bool(table[P.STATUS][P.REVERSED])
        rnd.played = list(self.played)
        rnd.out_of_trick = [p in self.passed for p in seating]
        if self.top is not None:
            owner = seating.index(self.owner)
            is_run = isinstance(self.top, Run)
            rnd.top = Top(self.top.rank, self.top.count, owner, run=is_run)
            assert rnd.suits is not None
            rnd.suits.top, rnd.suits.lock = self.top_suits, self.lock
        return rnd, seat

    def answer(self, table: P.Table, strategy: object, rng: Stream, plain: bool = False) -> P.Table:
        """The strategy's play at this turn as a table; a choice the reference engine
        refuses, or any when ``plain`` (asked again), is the pass (a leader's first legal
        play)."""
        rnd, seat = self.position(table)
        choice = None if plain else strategy.choose(rnd.observation(seat), rng)  # type: ignore[attr-defined]
        move, named = (choice.move, choice.cards) if isinstance(choice, Named) else (choice, ())
        if move is None or rnd.why_illegal(seat, move, named) is not None:
            move, named = rnd.legal_moves()[-1 if rnd.top is not None else 0], ()
        if move.is_pass:
            return P.play_table(PASS, [])
        assert rnd.suits is not None
        if isinstance(move, Run):
            laid = rnd.suits.run_cards(seat, move) or []
        else:
            laid = list(named) or rnd.suits.cards_for(seat, move.rank, move.count, rnd.top) or []
        return P.play_table(move, laid, rnd.reversed)


def stage_top(table: P.Table) -> Move | Run:
    """The combination on a stage as our engine compares it. Another server may have
    accepted a play our rules refuse (docs/uecda.md, "Where our server differs"): a set
    with the joker standing in is a set of all its cards; a sequence reaching past the 2
    (or below the 3) with the joker ends at the 2 (starts at the 3), which nothing passes."""
    try:
        move = P.read_play(table)
        return move.move if isinstance(move, Named) else move
    except P.IllegalShape:
        pass
    cells = [(r, c) for r in range(P.JOKER_ROW + 1) for c in range(P.COLS) if table[r][c]]
    rows, cols = {r for r, _ in cells}, sorted(c for _, c in cells)
    if len(rows) == 1 and len(cols) >= MIN_RUN and cols == list(range(cols[0], cols[-1] + 1)):
        low = min(max(cols[0] - 1, 0), TWO + 1 - len(cols))
        return Run(low, len(cols), 3 - rows.pop())
    ones = [c for r, c in cells if table[r][c] == P.CARD]
    return Move(ones[0] - 1 if ones else JOKER, len(cells))


def give_back_table(table: P.Table, strategy: object, rng: Stream) -> P.Table:
    """The cards a strategy gives back in the exchange (each rank's lowest suits, as the
    reference engine's exchange takes them)."""
    held = set(P.hand_cards(table))
    k = table[P.STATUS][P.TO_GIVE]
    ranks = strategy.give_back(counts_from_ids(held), k, rng)  # type: ignore[attr-defined]
    chosen: list[int] = []
    for rank in ranks:
        card = default_cards(held - set(chosen), rank, 1)[0]
        chosen.append(card)
    return P.hand_table(chosen)
