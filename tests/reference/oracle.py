"""An independent second implementation of one round of Président (a test oracle).

Written from ``docs/rules.md``, ``docs/READINGS.md`` and ``docs/formats.md`` §2 only, without
looking at the reference engine, so that the differential tests can catch mistakes
the engine makes.  It is deliberately plain: small state, explicit sets, no speed tricks.

Scope: one round from given hands (card lists or rank counts), the round-level options
of the rule book (both catalogues: ``equal_rank = "allow"``, ``eight_ends_trick``,
``jack_back``, ``accumulation_burns``, ``out_ends_trick``, ``after_out_lead`` included;
``clubs_three_opens`` is accepted but cannot change a round whose leader is given), the
third's ``five_skips``, ``capital_falls`` (the game's ``roles`` name the President),
``seven_passes`` and ``ten_discards`` (a scripted play's ``give``, else ``lowest``'s weakest
cards), and the two rules that read suits, ``suit_lock`` and ``spade_three_return`` (every
card is then followed with its suit: "Cards with suits" in docs/rules.md), a leader,
scripted moves first and then the strategy ``lowest``.

Public API:

* ``resolve_rules(rules)`` -- preset name / dict (optionally with ``preset``) -> dict of
  the round-level keys.
* ``OracleRound(rules, hands, leader)`` -- a position; ``legal_moves()``, ``apply(move)``,
  ``lowest_move()``, ``events``, ``over``, ``to_move``, ``hands`` (rank counts), ``cards``
  (card strings: with their suits under rules that read suits, where the hands must be
  given with suits), ``places``. A ``Move`` is a (rank, count) play or a pass; under
  rules that read suits it may name its cards (``named``), else its default cards leave
  the hand (``play_cards``).
* ``run_round(rules, hands, leader, moves=(), strategies=None)`` -> ``OracleResult``
  (``events`` and ``illegal_index``: the index of the first illegal scripted move, or
  ``None``).
* ``run_game(game_dict)`` -- the same from a ``docs/formats.md`` §2 game object.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import combinations

RANKS = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "JK")
RANK_INDEX = {r: i for i, r in enumerate(RANKS)}
SUITS = "CDHS"  # clubs, diamonds, hearts, spades: the lowest suit first
THREE = 0
FIVE = 2
SEVEN = 4
EIGHT = 5
TEN = 7
JACK = 8
TWO = 12
JOKER = 13
NRANKS = 14

ROUND_DEFAULTS: dict = {
    "jokers": 0,
    "equal_rank": "off",
    "larger_sets": "off",
    "transparent_threes": False,
    "two_ends_trick": False,
    "quad_burns": False,
    "revolution": False,
    "passing": "may_return",
    "no_finish_on_two": False,
    # second catalogue (table rules; no preset turns them on)
    "eight_ends_trick": False,
    "jack_back": False,
    "accumulation_burns": False,
    "out_ends_trick": False,
    "after_out_lead": "next_holder",
    "clubs_three_opens": "off",
    # third catalogue (Daifugo)
    "five_skips": False,
    "capital_falls": False,
    "seven_passes": False,
    "ten_discards": False,
    "suit_lock": "off",
    "spade_three_return": False,
}

# The rule book's keys that act between rounds or over a match (docs/rules.md): one round
# from a given deal and leader plays the same whatever they say, so they are accepted and
# ignored, by name. Every other key is refused: a rule the oracle does not know would
# leave it agreeing with an engine that plays the rule wrong
# (tests/reference/test_oracle_keys.py checks that it names every key of the spec).
MATCH_KEYS = ("players", "dealer", "reseat", "exchange", "opener", "points", "target")

# Only the round-level keys of each preset (docs/rules.md, "Presets").
PRESETS: dict[str, dict] = {
    "french": {"passing": "out_of_trick", "equal_rank": "skip", "no_finish_on_two": True},
    "regles-jeu": {
        "passing": "may_return",
        "equal_rank": "skip",
        "two_ends_trick": True,
        "no_finish_on_two": True,
    },
    "spade": {"passing": "may_return"},
    "scum": {"passing": "may_return"},
}

ALLOWED = {
    "jokers": (0, 1, 2),
    "equal_rank": ("off", "skip", "allow"),
    "larger_sets": ("off", "higher_rank", "any"),
    "transparent_threes": (False, True),
    "two_ends_trick": (False, True),
    "quad_burns": (False, True),
    "revolution": (False, True),
    "passing": ("may_return", "out_of_trick"),
    "no_finish_on_two": (False, True),
    "eight_ends_trick": (False, True),
    "jack_back": (False, True),
    "accumulation_burns": (False, True),
    "out_ends_trick": (False, True),
    "after_out_lead": ("next_holder", "last_in_trick"),
    "clubs_three_opens": ("off", "first_round", "every_round"),
    "five_skips": (False, True),
    "capital_falls": (False, True),
    "seven_passes": (False, True),
    "ten_discards": (False, True),
    "suit_lock": ("off", "suits"),
    "spade_three_return": (False, True),
}


class IllegalMove(Exception):
    """A move the rules forbid in the current position."""


def resolve_rules(rules: str | dict | None) -> dict:
    """The round-level rules as a plain dict (preset name, or dict of docs/rules.md keys).

    The match-level keys (``MATCH_KEYS``: ``players``, ``exchange``, ...) are ignored. A key
    it does not know, a bad value of a round-level key, or ``after_out_lead =
    "last_in_trick"`` together with ``passing = "may_return"``, raises ``ValueError``."""
    out = dict(ROUND_DEFAULTS)
    if rules is None:
        return out
    if isinstance(rules, str):
        out.update(PRESETS[rules])
    else:
        rules = dict(rules)
        preset = rules.pop("preset", None)
        if preset is not None:
            out.update(PRESETS[preset])
        for key, value in rules.items():
            if key in MATCH_KEYS:
                continue
            if key not in ROUND_DEFAULTS:
                raise ValueError(f"the oracle does not know the rule {key!r}")
            if value not in ALLOWED[key] or type(value) is not type(ROUND_DEFAULTS[key]):
                raise ValueError(f"bad value {value!r} for {key}; allowed: {list(ALLOWED[key])}")
            out[key] = value
    if out["after_out_lead"] == "last_in_trick" and out["passing"] != "out_of_trick":
        raise ValueError('after_out_lead = "last_in_trick" requires passing = "out_of_trick"')
    return out


# every card string, with or without its suit -> its rank index
CARD_RANK = {
    **RANK_INDEX,
    **{rank + suit: i for i, rank in enumerate(RANKS[:JOKER]) for suit in SUITS},
}


def card_rank(card: str) -> int:
    """Rank index of a card string ('7', '7H', '10S', 'JK')."""
    if card not in CARD_RANK:
        raise ValueError(f"not a card: {card!r}")
    return CARD_RANK[card]


def card_suit(card: str) -> str:
    """The suit letter of a card string, '' for a joker or a card named by its rank."""
    return "" if card in RANK_INDEX else card[-1]


def card_key(card: str) -> tuple[int, int]:
    """Sort key of a card: its rank, then its suit (clubs, diamonds, hearts, spades)."""
    return card_rank(card), SUITS.find(card_suit(card))


def reads_suits(rules: dict) -> bool:
    """Do these (resolved) rules read the cards' suits?"""
    return rules["suit_lock"] != "off" or rules["spade_three_return"]


def to_counts(hand) -> list[int]:
    """A hand given as a list of card strings or as rank counts -> 14 rank counts."""
    hand = list(hand)
    if hand and all(isinstance(x, int) for x in hand) and len(hand) in (13, 14):
        counts = hand + [0] * (NRANKS - len(hand))
        return counts
    counts = [0] * NRANKS
    for card in hand:
        counts[card_rank(card)] += 1
    return counts


def counts_to_cards(counts) -> list[str]:
    return [RANKS[r] for r in range(NRANKS) for _ in range(counts[r])]


def to_cards(hand, suits: bool) -> list[str]:
    """A hand as its sorted card strings: with their suits under rules that read suits
    (every card but a joker must name one), else ranks only ('7', 'JK')."""
    hand = list(hand)
    if hand and all(isinstance(x, int) for x in hand):
        if suits:
            raise ValueError("these rules read suits: give the hands as cards with suits")
        return counts_to_cards(to_counts(hand))
    cards = [str(c).strip().upper() for c in hand]
    for card in cards:
        card_rank(card)
        if suits and card != "JK" and not card_suit(card):
            raise ValueError(f"card {card!r} has no suit, and these rules read suits")
    if not suits:
        cards = [RANKS[card_rank(c)] for c in cards]
    return sorted(cards, key=card_key)


def same_rank(a: str, b: str) -> bool:
    return card_rank(a) == card_rank(b)


def without(cards: list[str], taken) -> list[str] | None:
    """``cards`` less ``taken`` (one of each), or None if some card of ``taken`` is missing."""
    left = list(cards)
    for card in taken:
        if card not in left:
            return None
        left.remove(card)
    return left


def named_cards(cards) -> tuple[str, ...]:
    """The cards a play (or a gift) names, when it names the suit of some card: all but
    the jokers, which have no suit (``()`` when it names none: the default cards leave
    the hand). Under rules that read suits, every one of them must have its suit."""
    cards = [str(c).strip().upper() for c in cards if str(c).strip().upper() != "JK"]
    return tuple(cards) if any(card_suit(c) for c in cards) else ()


@dataclass(frozen=True)
class Move:
    """``rank is None`` means a pass; ``gift``: the ranks a play of 7s or 10s hands over
    (``None``: the strategy ``lowest`` chooses). Under rules that read suits, ``named`` and
    ``gift_named`` are the cards with suits that the play and the gift name (jokers are
    never named); ``()``: the default cards (see ``OracleRound.play_cards``)."""

    seat: int
    rank: int | None = None
    count: int = 0
    gift: tuple[int, ...] | None = None
    named: tuple[str, ...] = ()
    gift_named: tuple[str, ...] = ()

    @property
    def is_pass(self) -> bool:
        return self.rank is None

    def to_dict(self) -> dict:
        if self.rank is None:
            return {"seat": self.seat, "pass": True}
        d = {"seat": self.seat, "play": list(self.named) or [RANKS[self.rank]] * self.count}
        if self.gift_named:
            d["give"] = list(self.gift_named) + ["JK"] * self.gift.count(JOKER)
        elif self.gift is not None:
            d["give"] = [RANKS[r] for r in self.gift]
        return d

    @staticmethod
    def from_dict(d: dict) -> Move:
        seat = d["seat"]
        if d.get("pass"):
            if "play" in d:
                raise IllegalMove("both play and pass")
            return Move(seat)
        cards = d.get("play")
        if not cards:
            raise IllegalMove("empty play")
        ranks = {card_rank(str(c).strip().upper()) for c in cards}
        if len(ranks) != 1:
            raise IllegalMove("cards of different ranks")
        gift, gift_named = d.get("give"), ()
        if gift is not None:
            gift_named = named_cards(gift)
            gift = tuple(card_rank(str(c).strip().upper()) for c in gift)
        return Move(seat, ranks.pop(), len(cards), gift, named_cards(cards), gift_named)


@dataclass
class Top:
    count: int
    rank: int  # the rank the top carries (transparent threes carry the covered rank)
    owner: int
    laid: int | None = None  # the rank of its cards (a joker is "a lone joker" by its cards)
    suits: frozenset[str] | None = None  # the suits of its cards (None: jokers, or no suits)


class OracleRound:
    """One round in progress: hands, the trick on the table, places, the events so far."""

    def __init__(self, rules, hands, leader: int, president: int | None = None) -> None:
        self.rules = resolve_rules(rules)
        self.president = president  # the previous round's President (capital_falls)
        self.suited = reads_suits(self.rules)  # every card followed with its suit
        # each hand twice: its cards ('7H', or '7' under rules that ignore suits, sorted)
        # and its rank counts; _take and _add keep the two in step
        self.cards = [to_cards(h, self.suited) for h in hands]
        self.hands = [to_counts(c) for c in self.cards]
        self.n = len(self.hands)
        self.dealt = [list(h) for h in self.hands]
        assert self.n >= 2, "need players"
        assert all(sum(h) > 0 for h in self.hands), "every hand holds a card"
        self.reversed = False  # the round's order: reversed by each four under revolution
        self.jack_back = False  # reversed once more until the end of the trick (jack_back)
        self.top: Top | None = None
        self.since_top: set[int] = set()  # passed or skipped since the top was laid
        self.out_of_trick: set[int] = set()  # passed in this trick (out_of_trick only)
        self.run_rank: int | None = None  # accumulation: rank of the trick's latest run
        self.run_count = 0  # accumulation: cards laid in that run
        self.lock: frozenset[str] | None = None  # suit_lock: the suits the trick is locked to
        self.places: list[int | None] = [None] * self.n
        self.next_best = 1
        self.next_worst = self.n
        self.events: list[dict] = []
        self.over = False
        self.to_move: int | None = leader
        self.trick_start = True

    # ----------------------------------------------------------------- order
    def order_reversed(self) -> bool:
        """Is the order in force reversed (revolutions, then jack-back on top)?"""
        return self.reversed != self.jack_back

    def strength(self, rank: int) -> int:
        """Strength of a rank under the order in force (jokers always on top)."""
        if rank == JOKER:
            return 13
        return 12 - rank if self.order_reversed() else rank

    def stronger(self, a: int, b: int) -> bool:
        return self.strength(a) > self.strength(b)

    def holds(self, seat: int) -> bool:
        return bool(self.cards[seat])

    def holders(self) -> list[int]:
        return [s for s in range(self.n) if self.holds(s)]

    # ----------------------------------------------------------------- cards
    def _take(self, seat: int, cards) -> None:
        for card in cards:
            self.cards[seat].remove(card)
            self.hands[seat][card_rank(card)] -= 1

    def _add(self, seat: int, cards) -> None:
        for card in cards:
            self.cards[seat].append(card)
            self.hands[seat][card_rank(card)] += 1
        self.cards[seat].sort(key=card_key)

    def spade_return(self, rank: int, count: int) -> bool:
        """Is a single 3 on a lone joker under ``spade_three_return`` (only the 3 of spades
        may be laid there as a 3, and it ends the trick at once)?"""
        top = self.top
        return (
            self.rules["spade_three_return"]
            and rank == THREE
            and count == 1
            and top is not None
            and top.count == 1
            and top.laid == JOKER
        )

    def play_cards(self, move: Move) -> tuple[str, ...]:
        """The cards a play lays: the ones it names (rules that read suits), else the ones
        a rule imposes (the locked suits; the 3 of spades on a lone joker), else the
        lowest suits of its rank (clubs, diamonds, hearts, spades). Sorted."""
        rank, count = move.rank, move.count
        if not self.suited:
            return (RANKS[rank],) * count  # the cards are ranks only
        if move.named:
            return tuple(sorted(move.named, key=card_key))
        if self.lock is not None and rank != JOKER and count == len(self.lock):
            return tuple(RANKS[rank] + suit for suit in SUITS if suit in self.lock)
        if self.spade_return(rank, count):
            return ("3S",)
        return tuple(c for c in self.cards[move.seat] if card_rank(c) == rank)[:count]

    # ----------------------------------------------------------------- legality
    def play_effect(self, rank: int, count: int, cards: tuple[str, ...] | None = None):
        """For a play of ``count`` cards of ``rank`` on the current top: None if it is
        not allowed, else (carried rank, causes_a_skip). Under rules that read suits,
        ``cards`` are the cards laid (``None``: suits are not looked at)."""
        r = self.rules
        top = self.top
        if count < 1 or count > 4:
            return None
        if top is None:
            return (rank, False)
        if self.suited:
            if cards is not None and self.lock is not None:
                # exactly the locked suits (so as many cards); jokers follow a lock
                suits = {card_suit(c) for c in cards}
                if count != len(self.lock) or (rank != JOKER and suits != self.lock):
                    return None
            if self.spade_return(rank, count):
                return (THREE, False) if cards is None or cards == ("3S",) else None
        c, t = top.count, top.rank
        skip = r["equal_rank"] == "skip"
        if count == c:
            if r["transparent_threes"] and rank == THREE:
                # threes take the rank they cover; on threes they are an equal play
                return (t, skip and t == THREE)
            if r["equal_rank"] != "off" and rank == t:
                return (t, skip)
            if self.stronger(rank, t):
                return (rank, False)
        elif count > c:
            if r["larger_sets"] == "any":
                return (rank, False)
            if r["larger_sets"] == "higher_rank" and self.stronger(rank, t):
                return (rank, False)
        if r["quad_burns"] and count == 4 and c < 4:
            return (rank, False)
        return None

    def legal_plays(self) -> list[tuple[int, int]]:
        """The distinct (rank, count) plays of the player to move. Where a rule imposes
        the cards (a lock, the 3 of spades on a lone joker), a play is allowed when those
        cards are held and allowed; elsewhere the suits change nothing."""
        if self.over:
            return []
        seat = self.to_move
        hand = self.hands[seat]
        out = []
        for rank in range(NRANKS):
            for count in range(1, hand[rank] + 1):
                cards = None
                if self.suited and (self.lock is not None or self.spade_return(rank, count)):
                    cards = self.play_cards(Move(seat, rank, count))
                    if without(self.cards[seat], cards) is None:
                        continue
                if self.play_effect(rank, count, cards) is not None:
                    out.append((rank, count))
        return out

    def card_sets(self, rank: int, count: int) -> list[tuple[str, ...]]:
        """Every set of ``count`` cards of ``rank`` the player to move holds (distinct)."""
        held = [c for c in self.cards[self.to_move] if card_rank(c) == rank]
        return list(dict.fromkeys(combinations(held, count)))

    def legal_moves(self) -> list[Move]:
        """Every legal move of the player to move: distinct (rank, count) plays, plus the
        pass when he is not leading."""
        if self.over:
            return []
        seat = self.to_move
        moves = [Move(seat, rank, count) for rank, count in self.legal_plays()]
        if self.top is not None:
            moves.append(Move(seat))
        return moves

    def check(self, move: Move) -> tuple[tuple[str, ...], list[str]]:
        """Raise IllegalMove if ``move`` is not allowed now; else the cards a play lays and
        those it hands over (7s, 10s)."""
        if self.over:
            raise IllegalMove("the round is over")
        if move.seat != self.to_move:
            if move.seat in self.out_of_trick:
                raise IllegalMove(
                    f"seat {move.seat} passed earlier in this trick (out_of_trick); "
                    f"seat {self.to_move}'s turn"
                )
            raise IllegalMove(f"seat {self.to_move}'s turn, not seat {move.seat}'s")
        if move.is_pass:
            if self.top is None:
                raise IllegalMove("the leader may not pass")
            return (), []
        if move.rank == JOKER and self.rules["jokers"] == 0:
            raise IllegalMove("no jokers")
        if self.hands[move.seat][move.rank] < move.count:
            raise IllegalMove("card not held")
        if self.suited and not all(map(card_suit, move.named + move.gift_named)):
            raise IllegalMove("name the suit of every card or of none")
        cards = self.play_cards(move)
        left = without(self.cards[move.seat], cards)
        if left is None:
            raise IllegalMove(f"card not held: {' '.join(cards)}")
        if self.play_effect(move.rank, move.count, cards if self.suited else None) is None:
            raise IllegalMove("does not beat the top")
        return cards, self.handed_over(move, left)

    def handed_over(self, move: Move, left: list[str]) -> list[str]:
        """The cards a play of 7s or 10s hands over from the cards ``left`` after it: the
        move's ``gift`` (the cards it names, or by rank each rank's lowest suits first),
        else those ``lowest`` chooses, its weakest cards (normal order, lowest suits
        first). Raises IllegalMove for a gift of the wrong size or of cards not left."""
        owed = self.owed(move)
        if move.gift is None:
            return left[:owed]
        if len(move.gift) != owed:
            raise IllegalMove(f"{len(move.gift)} cards handed over, not {owed}")
        if self.suited and move.gift_named:
            wanted = [*move.gift_named, *["JK"] * move.gift.count(JOKER)]
        else:
            wanted = [RANKS[rank] for rank in move.gift]
        pool, out = list(left), []
        for card in wanted:  # a rank alone takes the lowest suit left (pool is sorted)
            same = [c for c in pool if c == card or (not card_suit(card) and same_rank(c, card))]
            if not same:
                raise IllegalMove("handed over a card not held")
            pool.remove(same[0])
            out.append(same[0])
        return sorted(out, key=card_key)

    def owed(self, move: Move) -> int:
        """Cards a play hands over right after it: one per 7 (seven_passes), one per 10
        (ten_discards), at most all the cards left."""
        r = self.rules
        if move.is_pass or not (
            (r["seven_passes"] and move.rank == SEVEN) or (r["ten_discards"] and move.rank == TEN)
        ):
            return 0
        return min(move.count, sum(self.hands[move.seat]) - move.count)

    # ----------------------------------------------------------------- strategy
    def lowest_move(self) -> Move:
        """The strategy ``lowest`` under the order in force (ranks are card ranks)."""
        seat = self.to_move
        hand = self.hands[seat]
        if self.top is None:
            rank = min((r for r in range(NRANKS) if hand[r]), key=self.strength)
            return Move(seat, rank, hand[rank])
        plays = self.legal_plays()
        if not plays:
            return Move(seat)
        rank, count = min(plays, key=lambda p: (self.strength(p[0]), p[1]))
        return Move(seat, rank, count)

    # ----------------------------------------------------------------- turns
    def _next_from(self, pos: int, exclude: int | None) -> int | None:
        """Next seat clockwise after ``pos`` who holds cards, is not ``exclude`` and is
        not out of the trick."""
        for i in range(1, self.n + 1):
            s = (pos + i) % self.n
            if s == exclude or not self.holds(s) or s in self.out_of_trick:
                continue
            return s
        return None

    def _leader_after(self, owner: int) -> int:
        """The owner if he holds cards, else the next holder clockwise from his seat."""
        if self.holds(owner):
            return owner
        for i in range(1, self.n):
            s = (owner + i) % self.n
            if self.holds(s):
                return s
        raise AssertionError("nobody holds cards")

    def _trick_over(self) -> bool:
        owner = self.top.owner
        done = self.since_top | self.out_of_trick
        return all(s in done for s in self.holders() if s != owner)

    def _end_trick(self, leader: int) -> None:
        self.events.append({"event": "trick_end", "next_leader": leader})
        self.top = None
        self.since_top = set()
        self.out_of_trick = set()
        self.jack_back = False
        self.run_rank = None
        self.run_count = 0
        self.lock = None
        self.to_move = leader

    def _end_trick_if_done(self) -> bool:
        """The check made after a pass, and after a play (its ``out`` and skip): end the
        trick if it is over. Returns True if it ended."""
        owner = self.top.owner
        if self.rules["after_out_lead"] == "last_in_trick" and not self.holds(owner):
            # "in the trick": holds cards and has not passed in it (a skipped player is in)
            left = [s for s in self.holders() if s not in self.out_of_trick]
            if len(left) == 1:
                self._end_trick(left[0])
                return True
        if self._trick_over():
            self._end_trick(self._leader_after(owner))
            return True
        return False

    def _hand_over(self, seat: int, rank: int, cards: list[str]) -> None:
        """After 7s the cards go to the next holder clockwise, after 10s out of the round."""
        self._take(seat, cards)
        if rank == TEN:
            self.events.append({"event": "discard", "seat": seat, "cards": cards})
            return
        to = next(s % self.n for s in range(seat + 1, seat + self.n) if self.holds(s % self.n))
        self._add(to, cards)
        self.events.append({"event": "give", "seat": seat, "to": to, "cards": cards})

    # ----------------------------------------------------------------- apply
    def apply(self, move: Move) -> None:
        """Play ``move`` (raises IllegalMove) and record its events."""
        cards, gift = self.check(move)
        seat = move.seat
        r = self.rules
        if move.is_pass:
            self.events.append({"event": "pass", "seat": seat})
            self.since_top.add(seat)
            if r["passing"] == "out_of_trick":
                self.out_of_trick.add(seat)
            if not self._end_trick_if_done():
                self.to_move = self._next_from(seat, self.top.owner)
                assert self.to_move is not None
            return

        rank, count = move.rank, move.count
        carried, skip = self.play_effect(rank, count, cards if self.suited else None)
        spade_return = self.spade_return(rank, count)
        self._take(seat, cards)
        self.events.append({"event": "play", "seat": seat, "cards": list(cards)})
        if gift:
            self._hand_over(seat, rank, gift)

        # suit_lock: a play of exactly the suits of the play it beats locks the trick
        suits = None if rank == JOKER or not self.suited else frozenset(map(card_suit, cards))
        follows = self.top is not None and suits is not None and suits == self.top.suits
        if r["suit_lock"] == "suits" and self.lock is None and follows:
            self.lock = suits

        # accumulation: the run is the trick's latest plays of one rank (the rank a play
        # has: transparent threes count with the rank they took)
        if self.top is not None and carried == self.run_rank:
            self.run_count += count
        else:
            self.run_rank, self.run_count = carried, count
        ends_now = (
            (r["two_ends_trick"] and rank == TWO)
            or (r["eight_ends_trick"] and rank == EIGHT)
            or (r["quad_burns"] and count == 4)
            or (r["accumulation_burns"] and count < 4 and self.run_count >= 4)
            or spade_return
        )
        if r["revolution"] and count == 4:
            self.reversed = not self.reversed
        if r["jack_back"] and rank == JACK:
            self.jack_back = not self.jack_back
        self.top = Top(count, carried, seat, rank, suits)
        self.since_top = set()

        if not self.holds(seat):
            if r["no_finish_on_two"] and rank in (TWO, JOKER):
                place = self.next_worst
                self.next_worst -= 1
            else:
                place = self.next_best
                self.next_best += 1
            self.places[seat] = place
            self.events.append({"event": "out", "seat": seat, "place": place})
            if r["out_ends_trick"]:
                ends_now = True
            fallen = self.president  # beaten to first place: last at once, cards gone
            if (
                r["capital_falls"]
                and place == 1
                and fallen not in (None, seat)
                and self.holds(fallen)
                and len(self.holders()) > 1  # alone, he takes the place left: no fall
            ):
                self._take(fallen, list(self.cards[fallen]))
                self.places[fallen] = self.next_worst
                self.events.append({"event": "falls", "seat": fallen, "place": self.next_worst})
                self.next_worst -= 1

        holders = self.holders()
        if len(holders) <= 1:
            for s in holders:
                assert self.next_best == self.next_worst
                self.places[s] = self.next_best
            self.events.append({"event": "round_end", "places": list(self.places)})
            self.over = True
            self.to_move = None
            return

        if ends_now:
            # ended at once: no skip; after_out_lead does not apply
            self._end_trick(self._leader_after(seat))
            return

        pos = seat
        times = 1 if skip else 0  # players skipped one after the other
        if r["five_skips"] and rank == FIVE:
            times = max(times, count)
        for _ in range(times):
            skipped = self._next_from(pos, seat)
            if skipped is None or skipped in self.since_top:  # back around to the player
                break
            self.events.append({"event": "skip", "seat": skipped})
            self.since_top.add(skipped)
            pos = skipped
        if self._end_trick_if_done():
            return
        self.to_move = self._next_from(pos, seat)
        assert self.to_move is not None


@dataclass
class OracleResult:
    events: list[dict] = field(default_factory=list)
    illegal_index: int | None = None
    illegal_reason: str | None = None
    round: OracleRound | None = None


def run_round(
    rules, hands, leader: int, moves=(), strategies=None, president: int | None = None
) -> OracleResult:
    """Play one round: the scripted ``moves`` first (dicts or ``Move``), then ``lowest``;
    ``president``: the seat of the previous round's President, if any."""
    if strategies is not None and any(s != "lowest" for s in strategies):
        raise ValueError("the oracle only plays the strategy 'lowest'")
    rnd = OracleRound(rules, hands, leader, president)
    result = OracleResult(events=rnd.events, round=rnd)
    for i, m in enumerate(moves):
        try:
            move = m if isinstance(m, Move) else Move.from_dict(m)
            rnd.apply(move)
        except (IllegalMove, ValueError) as exc:
            result.illegal_index = i
            result.illegal_reason = str(exc)
            return result
    while not rnd.over:
        rnd.apply(rnd.lowest_move())
    return result


def run_game(game: dict) -> OracleResult:
    """A docs/formats.md §2 game object through the oracle."""
    return run_round(
        game.get("rules", {}),
        game["hands"],
        game["leader"],
        game.get("moves", []),
        game.get("strategies"),
        game["roles"].index("president") if game.get("roles") else None,
    )


def moves_of_events(events) -> list[dict]:
    """The moves (plays and passes, with the cards a play hands over) contained in a list
    of events, as scripted moves."""
    out = []
    for e in events:
        if e["event"] == "play":
            out.append({"seat": e["seat"], "play": list(e["cards"])})
        elif e["event"] == "pass":
            out.append({"seat": e["seat"], "pass": True})
        elif e["event"] in ("give", "discard"):
            out[-1]["give"] = list(e["cards"])
    return out


# --------------------------------------------------------------------- generators


def make_deal(
    rng, n: int, jokers: int, partial: bool = False, suits: bool = False, clumped: bool = False
):
    """Random hands for ``n`` seats from a ``random.Random``.

    Full deal: the whole deck (52 or 54 cards) shuffled and dealt one card at a time
    clockwise from a random seat (the first ``deck mod n`` seats from there hold one card
    more). Partial deal: a random part of the deck, every hand holding at least one card,
    the rest spread at random (uneven hands, a position set up mid-game). Clumped: the
    deck is only lightly shuffled (ranks in random order, cards of a rank together, a
    few random swaps) and dealt in consecutive blocks, so that hands hold many pairs,
    threes and fours (revolutions, burns, larger sets). ``suits``: every card with its
    suit letter ("7H"; the hands of rules that read suits must be dealt so), else ranks
    only ("7"); either way the deck's cards are distinct.
    """
    if clumped:
        order = list(range(13))
        rng.shuffle(order)
        deck = [f"{RANKS[r]}{s}" for r in order for s in SUITS]
        deck[rng.randrange(len(deck) + 1) : 0] = ["JK"] * jokers
        for _ in range(rng.randrange(4, 16)):
            i, j = rng.randrange(len(deck)), rng.randrange(len(deck))
            deck[i], deck[j] = deck[j], deck[i]
        seats = list(range(n))
        rng.shuffle(seats)
        sizes = [len(deck) // n + (1 if i < len(deck) % n else 0) for i in range(n)]
        if partial:
            sizes = [rng.randint(1, size) for size in sizes]
        hands = [[] for _ in range(n)]
        pos = 0
        for seat, size in zip(seats, sizes, strict=True):
            hands[seat] = deck[pos : pos + size]
            pos += size
        for hand in hands:
            hand.sort(key=card_rank)
        if not suits:
            hands = [[c if c == "JK" else c[:-1] for c in hand] for hand in hands]
        return hands
    deck = [f"{r}{s}" for r in RANKS[:13] for s in SUITS] + ["JK"] * jokers
    rng.shuffle(deck)
    hands: list[list[str]] = [[] for _ in range(n)]
    if partial:
        total = rng.randint(n, len(deck) - 1)
        for i in range(n):
            hands[i].append(deck[i])
        for card in deck[n:total]:
            hands[rng.randrange(n)].append(card)
    else:
        start = rng.randrange(n)
        for i, card in enumerate(deck):
            hands[(start + i) % n].append(card)
    for hand in hands:
        hand.sort(key=card_rank)
    if not suits:
        hands = [[c if c == "JK" else c[:-1] for c in hand] for hand in hands]
    return hands


def move_dict(move: Move, rng=None) -> dict:
    """A move as a scripted-move dict; with ``rng``, the cards of a play that names none
    get random suit letters (for rules that ignore suits)."""
    d = move.to_dict()
    if rng is not None and "play" in d and not move.named:
        d["play"] = [c if c == "JK" else c + rng.choice(SUITS) for c in d["play"]]
    return d


def random_move(rnd: OracleRound, rng) -> Move:
    """A random legal move: a (rank, count) play or a pass; under rules that read suits,
    a play names random cards it may lay one time in two. A play of 7s or 10s hands over
    random cards one time in two (under rules that read suits, named or by rank)."""
    move = rng.choice(rnd.legal_moves())
    if rnd.suited and not move.is_pass and move.rank != JOKER and rng.random() < 0.5:
        sets = rnd.card_sets(move.rank, move.count)
        named = [c for c in sets if rnd.play_effect(move.rank, move.count, c) is not None]
        move = replace(move, named=rng.choice(named))
    owed = rnd.owed(move)
    if owed and rng.random() < 0.5:
        left = without(rnd.cards[move.seat], rnd.play_cards(move))
        gift = sorted(rng.sample(left, owed), key=card_key)
        named = () if not rnd.suited or rng.random() < 0.5 else named_cards(gift)
        move = replace(move, gift=tuple(map(card_rank, gift)), gift_named=named)
    return move


def random_prefix(
    rules, hands, leader: int, rng, length: int, suits: bool = False, president: int | None = None
):
    """Up to ``length`` random legal moves (:func:`random_move`) from the start;
    ``suits``: the moves of rules that ignore suits get random suit letters;
    ``president``: the previous round's President, if any.

    Returns (scripted move dicts, the oracle position after them)."""
    rnd = OracleRound(rules, hands, leader, president)
    moves = []
    while len(moves) < length and not rnd.over:
        move = random_move(rnd, rng)
        moves.append(move_dict(move, rng if suits and not rnd.suited else None))
        rnd.apply(move)
    return moves, rnd
