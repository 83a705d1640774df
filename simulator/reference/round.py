"""The reference engine: one round of Président in plain Python, read like the rule book.

This is the readable specification in code. The numba kernel is its fast twin and is
tested against it move for move; replays, interactive play and plain-Python strategies
all run on it. A :class:`Round` holds the state of one round; :meth:`Round.legal_moves`
lists what the player to move may do, :meth:`Round.apply` plays a move and returns the
events it causes, in the order docs/formats.md §2 gives ("The events", "Order"):

    the play; then, if the hand is now empty, "out"; then the skip the play causes;
    then the end of the trick. A play that leaves one player holding cards ends the
    round at once ("round_end"), with no skip and no end of trick. A play that ends the
    trick at once (2s, a burn, 8s, an accumulation, going out under out_ends_trick)
    causes no skip.

Moves are ``(rank, count)`` pairs: ranks 0..13 (3 … 2, joker), count 1..4, and the
pass ``(PASS_RANK, 0)``. Suits matter only under the rules that read them
(:attr:`~simulator.rules.options.Rules.suited`): a round then follows each card too
(:class:`~simulator.reference.suits.Suits`), and a play may name its cards.
"""

from __future__ import annotations

from collections.abc import Sequence

from simulator.reference.capital import president_falls
from simulator.reference.moves import (
    PASS,
    PASS_RANK,
    Event,
    IllegalMove,
    Move,
    Run,
    Top,
)
from simulator.reference.observation import Observation, observe
from simulator.reference.refusals import why_gift_illegal, why_illegal
from simulator.reference.runs import play_run, run_effect
from simulator.reference.suits import RETURN_KEY, Suits
from simulator.rules.cards import (
    EIGHT,
    FIVE,
    JACK,
    JOKER,
    NUM_RANKS,
    SEVEN,
    TEN,
    THREE,
    TWO,
    card_rank,
    strength,
)
from simulator.rules.options import Rules, order_note

__all__ = ["PASS", "PASS_RANK", "Event", "IllegalMove", "Move", "Observation", "Round", "Top"]


class Round:
    """The state of one round, from a deal and a leader to the places.

    ``hands[s]`` are seat s's 14 rank counts (copied); under rules that read suits,
    ``cards[s]`` are its card ids too (:attr:`suits`). The round needs at least two
    players holding cards.
    """

    def __init__(
        self,
        rules: Rules,
        hands: Sequence[Sequence[int]],
        leader: int,
        roles: Sequence[str] = (),
        cards: Sequence[Sequence[int]] | None = None,
    ) -> None:
        self.rules = rules
        self.n = len(hands)
        self.hands = [list(h) + [0] * (NUM_RANKS - len(h)) for h in hands]
        if rules.suited and cards is None:
            raise ValueError("these rules read suits: the round needs each seat's cards")
        self.suits = Suits(rules, cards) if rules.suited and cards is not None else None
        self.cards_left = [sum(h) for h in self.hands]
        self.played = [0] * NUM_RANKS
        self.places = [0] * self.n
        self.best_free = 1
        self.worst_free = self.n
        self.reversed = False  # the round's order: each four flips it under revolution
        self.jack_back = False  # the order in force is reversed once more until the trick ends
        self.run = 0  # cards in the trick's latest run of one rank (accumulation_burns)
        self.ended_by = ""  # why the last trick ended: a rule key, or "passes"
        self.skipped_seats: tuple[int, ...] = ()  # the seats the top on the table skipped
        self.skipped_by = ""  # the rule that made it skip
        self.roles = tuple(roles)
        self.over = False
        self.turn = leader
        self.top: Top | None = None
        self.answered = [False] * self.n  # passed or skipped since the top was laid
        self.out_of_trick = [False] * self.n  # passed earlier in this trick (out_of_trick)
        self.tricks = 1  # tricks begun, for game-length statistics
        self.plays = 0
        self.passes = 0
        self.skips = 0
        if self.cards_left[leader] == 0:
            raise ValueError(f"the leader, seat {leader}, holds no cards")
        if sum(1 for c in self.cards_left if c) < 2:
            raise ValueError("a round needs at least two players holding cards")

    # ------------------------------------------------------------ rank order

    @property
    def order_reversed(self) -> bool:
        """The order in force: the round's order, reversed once more during a jack-back."""
        return self.reversed != self.jack_back

    def strength(self, rank: int) -> int:
        """Strength of a rank under the order in force (revolution and jack-back reverse 3…2)."""
        return strength(rank, self.order_reversed)

    def order_note(self) -> str:
        """The order in force in words, when it is not the plain normal order."""
        return order_note(self.order_reversed, self.jack_back)

    def stronger(self, a: int, b: int) -> bool:
        """Whether rank ``a`` strictly beats rank ``b`` under the order in force."""
        return self.strength(a) > self.strength(b)

    # ------------------------------------------------------------ legality

    def play_effect(self, rank: int, count: int) -> tuple[int, bool] | str:
        """How a play would land on the current top.

        Returns ``(rank_taken, is_equal)`` when the play is allowed — the rank the new
        top will carry and whether it is an equal-rank play that skips (``skip``; under
        ``allow`` the same play skips nobody) — or the key of the rule it breaks (see
        :meth:`explain`).
        """
        rules, top = self.rules, self.top
        if top is None:
            return rank, False  # a leader plays any combination; threes are plain threes
        if top.run:
            return "set_on_run"
        if self.suits and self.suits.spade_return(rank, count, top):
            return rank, False  # the 3 of spades on a lone joker (it must be that 3)
        t, c = top.rank, top.count
        if count == c:
            if rank == THREE and rules.transparent_threes:
                return t, rules.equal_rank == "skip" and t == THREE
            if self.stronger(rank, t):
                return rank, False
            if rank == t:
                return (rank, rules.equal_rank == "skip") if rules.equal_rank != "off" else "equal"
            return "not_higher"
        if count < c:
            return "fewer"
        if (count == 4 and rules.quad_burns) or rules.larger_sets == "any":
            return rank, False
        if rules.larger_sets == "higher_rank":
            return (rank, False) if self.stronger(rank, t) else "larger_not_higher"
        return "more"

    def legal_moves(self) -> list[Move | Run]:
        """Every legal move of the player to move: plays by (count, rank), then sequences
        by (length, lowest rank, suit), then the pass."""
        if self.over:
            return []
        hand = self.hands[self.turn]
        held = [rank for rank in range(NUM_RANKS) if hand[rank]]
        moves: list[Move | Run] = [
            Move(rank, count)
            for count in range(1, 5)
            for rank in held
            if hand[rank] >= count
            and not isinstance(self.play_effect(rank, count), str)
            and (not self.suits or self.suits.cards_for(self.turn, rank, count, self.top))
        ]
        if self.suits and self.rules.sequenced:
            moves += [run for run in self.suits.runs(self.turn) if run_effect(self, run) is None]
        if self.top is not None:
            moves.append(PASS)
        return moves

    def why_illegal(self, seat: int, move: Move | Run, cards: Sequence[int] = ()) -> str | None:
        """The rule a move breaks, or ``None`` when it is legal
        (:func:`simulator.reference.refusals.why_illegal`); ``cards``: the card ids a
        play names, under rules that read suits."""
        return why_illegal(self, seat, move, cards)

    def owes(self, move: Move | Run) -> int:
        """How many cards a legal ``move`` of the player to move obliges him to hand over
        right after it: one per 7 under ``seven_passes`` (to :meth:`receiver`), one per 10
        under ``ten_discards`` (discarded face up); all he has left when that is fewer."""
        rules = self.rules
        sevens = move.rank == SEVEN and rules.seven_passes
        if (
            isinstance(move, Run)
            or move.is_pass
            or not (sevens or (move.rank == TEN and rules.ten_discards))
        ):
            return 0
        return max(min(move.count, self.cards_left[self.turn] - move.count), 0)

    def receiver(self, seat: int, rank: int) -> int | None:
        """Who receives the cards ``seat`` hands over after his play of ``rank``: after 7s
        the next player clockwise holding cards; after 10s nobody (``None``: discarded)."""
        if rank != SEVEN:
            return None
        return next(
            s % self.n for s in range(seat + 1, seat + self.n) if self.cards_left[s % self.n]
        )

    # ------------------------------------------------------------ playing

    def apply(
        self,
        move: Move | Run,
        seat: int | None = None,
        gift: Sequence[int] = (),
        cards: Sequence[int] = (),
        gift_cards: Sequence[int] = (),
    ) -> list[Event]:
        """Play ``move`` for the player to move (or check it is ``seat``'s), hand over the
        cards of ``gift`` (ranks) when the play obliges him (:meth:`owes`), and return the
        events. Under rules that read suits a play may name its card ids (``cards``) and
        those it hands over (``gift_cards``, of the ranks of ``gift``); else the rules'
        default cards leave the hand (:mod:`simulator.reference.suits`)."""
        seat = self.turn if seat is None else seat
        gift = list(gift) or [card_rank(card) for card in gift_cards]
        reason = self.why_illegal(seat, move, cards)
        if reason is None:
            reason = why_gift_illegal(self, move, gift, gift_cards, cards)
        if reason is not None:
            raise IllegalMove(reason)
        if move.is_pass:
            return self._pass(seat)
        if isinstance(move, Run):
            return play_run(self, seat, move)
        return self._play(seat, move, gift, list(cards), list(gift_cards))

    def _pass(self, seat: int) -> list[Event]:
        events = [Event("pass", seat=seat)]
        self.passes += 1
        self.answered[seat] = True
        if self.rules.passing == "out_of_trick":
            self.out_of_trick[seat] = True
        self.continue_trick(seat, events)
        return events

    def _play(
        self, seat: int, move: Move, gift: list[int], cards: list[int], gift_cards: list[int]
    ) -> list[Event]:
        rank, count = move
        rank_taken, is_equal = self.play_effect(rank, count)  # type: ignore[misc]
        at_once = ""
        if self.suits:  # the cards it lays: named, imposed by a rule, or the default ones
            if self.suits.spade_return(rank, count, self.top):
                at_once = RETURN_KEY
            cards = cards or self.suits.cards_for(seat, rank, count, self.top) or []
            self.suits.play(seat, cards)
        # a run: the trick's latest plays of one rank (the rank the play carries)
        joins_run = self.top is not None and rank_taken == self.top.rank
        self.run = self.run + count if joins_run else count
        self.hands[seat][rank] -= count
        self.cards_left[seat] -= count
        self.played[rank] += count
        self.top = Top(rank_taken, count, seat)
        self.answered = [False] * self.n
        self.skipped_seats, self.skipped_by = (), ""
        self.plays += 1
        events = [Event("play", seat, rank, count, cards=tuple(sorted(cards)), ids=bool(cards))]
        if count == 4 and self.rules.revolution:
            self.reversed = not self.reversed  # in force from the next play on
        if rank == JACK and self.rules.jack_back:
            self.jack_back = not self.jack_back  # from the next play until the trick ends
        if gift:
            self._hand_over(seat, rank, gift, events, gift_cards)
        at_once = at_once or self.ends_trick_at_once(rank, count)
        if self.ends_now(seat, rank in (TWO, JOKER), at_once, events):
            return events
        skip_by, times = self._skips_next(rank, count, is_equal)
        last = seat
        skipped: list[int] = []
        for _ in range(times if skip_by else 0):  # until the turn would come back to him
            nxt = self._next_to_ask(last)
            if nxt is None:
                break
            events.append(Event("skip", seat=nxt))
            self.skips += 1
            self.answered[nxt] = True
            skipped.append(nxt)
            last = nxt
        if skipped:
            self.skipped_seats, self.skipped_by = tuple(skipped), skip_by
        self.continue_trick(last, events)
        return events

    def ends_now(self, seat: int, on_two: bool, at_once: str, events: list[Event]) -> bool:
        """After a play and its hand-over: the player goes out if his hand is empty
        (``on_two``: on 2s or jokers), then the round or the trick ends at once (``at_once``:
        the rule that ends it, or ``""``); whether one of them did."""
        if self.cards_left[seat] == 0:
            self._go_out(seat, on_two, events)
            if self.over:
                return True
            if not at_once and self.rules.out_ends_trick:
                at_once = "out_ends_trick"
        if at_once:
            self._end_trick(events, why=at_once)
            return True
        return False

    def _hand_over(
        self, seat: int, rank: int, gift: list[int], events: list[Event], named: list[int]
    ) -> None:
        """The cards of ``gift`` leave the hand after the play: to the next player holding
        cards after 7s, face up out of the round after 10s (counted as played)."""
        to = self.receiver(seat, rank)
        ids = tuple(self.suits.hand_over(seat, to, gift, named)) if self.suits else ()
        for card in gift:
            self.hands[seat][card] -= 1
            self.cards_left[seat] -= 1
            if to is None:
                self.played[card] += 1
            else:
                self.hands[to][card] += 1
                self.cards_left[to] += 1
        cards = ids or tuple(sorted(gift))
        if to is None:
            events.append(
                Event("discard", seat=seat, cards=cards, rule="ten_discards", ids=bool(ids))
            )
        else:
            events.append(
                Event("give", seat=seat, to=to, cards=cards, rule="seven_passes", ids=bool(ids))
            )

    def _skips_next(self, rank: int, count: int, is_equal: bool) -> tuple[str, int]:
        """The rule that makes this play skip players, and how many, one after the other
        (``("", 0)``: none): an equal play under ``equal_rank = "skip"`` skips one
        (``is_equal``, from :meth:`play_effect`); a play of 5s under ``five_skips`` one per 5
        (it names the skip when it skips more). A table rule that makes a play skip
        returns its key here; the play does not skip when it ends the trick."""
        if self.rules.five_skips and rank == FIVE and (count > 1 or not is_equal):
            return "five_skips", count
        return ("equal_rank", 1) if is_equal else ("", 0)

    def ends_trick_at_once(self, rank: int, count: int) -> str:
        """The rule that ends the trick at once on this play, or ``""``: 2s under
        ``two_ends_trick``, fours under ``quad_burns``, 8s under ``eight_ends_trick``, a run
        reaching 4 cards under ``accumulation_burns`` (never a play of 4 cards)."""
        rules = self.rules
        if rank == TWO and rules.two_ends_trick:
            return "two_ends_trick"
        if count == 4 and rules.quad_burns:
            return "quad_burns"
        if rank == EIGHT and rules.eight_ends_trick:
            return "eight_ends_trick"
        if rules.accumulation_burns and count < 4 and self.run >= 4:
            return "accumulation_burns"
        return ""

    def _go_out(self, seat: int, on_two: bool, events: list[Event]) -> None:
        """The player takes the best free place, or the worst after 2s/jokers (``on_two``,
        under no_finish_on_two)."""
        if self.rules.no_finish_on_two and on_two:
            place = self.worst_free
            self.worst_free -= 1
        else:
            place = self.best_free
            self.best_free += 1
        self.places[seat] = place
        events.append(Event("out", seat=seat, place=place))
        if self.rules.capital_falls and place == 1:
            president_falls(self, seat, events)
        holders = [s for s in range(self.n) if self.cards_left[s]]
        if len(holders) == 1:
            self.places[holders[0]] = self.best_free
            self.over = True
            events.append(Event("round_end", places=tuple(self.places)))

    def _next_to_ask(self, after: int) -> int | None:
        """The next player clockwise who would be asked (holds cards, still in the trick)."""
        owner = self.top.owner if self.top else -1
        for step in range(1, self.n):
            s = (after + step) % self.n
            if s == owner:
                return None
            if self.cards_left[s] and not self.out_of_trick[s]:
                return s
        return None

    def _trick_is_over(self) -> bool:
        """Everyone holding cards but the top's owner has passed (or been skipped)."""
        owner = self.top.owner if self.top else -1
        return all(
            s == owner or not self.cards_left[s] or self.answered[s] or self.out_of_trick[s]
            for s in range(self.n)
        )

    def _last_in_trick(self) -> int | None:
        """Under ``after_out_lead = "last_in_trick"``, while the top's owner is out: the
        one player left in the trick (holds cards, has not passed in it; a skipped player
        is in it), who leads next without being asked; ``None`` otherwise."""
        if self.rules.after_out_lead != "last_in_trick" or self.top is None:
            return None
        if self.cards_left[self.top.owner]:
            return None
        left = [s for s in range(self.n) if self.cards_left[s] and not self.out_of_trick[s]]
        return left[0] if len(left) == 1 else None

    def continue_trick(self, last: int, events: list[Event]) -> None:
        """After a pass, or a play (its out and skip done): end the trick or move the turn on."""
        alone = self._last_in_trick()
        if alone is not None:
            self._end_trick(events, alone, why="last_in_trick")
            return
        if self._trick_is_over():
            self._end_trick(events)
            return
        nxt = self._next_to_ask(last)
        assert nxt is not None, "a trick that is not over has someone to ask"
        self.turn = nxt

    def _end_trick(
        self, events: list[Event], leader: int | None = None, why: str = "passes"
    ) -> None:
        """The owner of the top leads (unless ``leader`` is given); if he is out, the next
        player clockwise holding cards. Jack-back ends with the trick, a revolution stays.
        ``why`` (kept in :attr:`ended_by`) is the rule that ended it, or ``passes``."""
        assert self.top is not None
        self.ended_by = why
        if leader is None:
            leader = self.top.owner
            while not self.cards_left[leader]:
                leader = (leader + 1) % self.n
        events.append(Event("trick_end", next_leader=leader))
        self.top = None
        self.turn = leader
        self.skipped_seats, self.skipped_by = (), ""
        self.answered = [False] * self.n
        self.out_of_trick = [False] * self.n
        self.jack_back = False
        self.run = 0
        self.tricks += 1
        if self.suits:
            self.suits.end_trick()

    # ------------------------------------------------------------ reading

    def observation(self, seat: int | None = None) -> Observation:
        """What ``seat`` (default: the player to move) may know now."""
        return observe(self, self.turn if seat is None else seat)
