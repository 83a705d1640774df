"""An independent second implementation of one round of Président (a test oracle).

Written from ``docs/rules.md``, ``docs/READINGS.md`` and ``docs/formats.md`` §2 only, without
looking at the reference engine, so that the differential tests can catch mistakes
the engine makes.  It is deliberately plain: small state, explicit sets, no speed tricks.

Scope: one round from given hands (card lists or rank counts), the round-level options
of the rule book (both catalogues: ``equal_rank = "allow"``, ``eight_ends_trick``,
``jack_back``, ``accumulation_burns``, ``out_ends_trick``, ``after_out_lead`` included;
``clubs_three_opens`` and the third's ``opening_three`` are accepted but cannot change a
round whose leader is given), the third's ``five_skips``, ``capital_falls`` (the game's
``roles`` name the President), ``seven_passes`` and ``ten_discards`` (a scripted play's
``give``, else the strategy's give-back), the rules that read suits, ``suit_lock``,
``spade_three_return`` and ``sequences`` with ``sequence_revolution`` and
``eights_in_sequences`` (every card is then followed with its suit: "Cards with suits" in
docs/rules.md), a leader, scripted moves first and then the strategies ``lowest`` and
``random`` (``random`` draws from a stream the caller passes in: any object with
``below(n)``, so the oracle imports nothing of the simulator).

Public API:

* ``resolve_rules(rules)`` -- preset name / dict (optionally with ``preset``) -> dict of
  the round-level keys.
* ``OracleRound(rules, hands, leader, president, strategies, stream)`` -- a position;
  ``legal_moves()``, ``apply(move)``, ``lowest_move()``, ``events``, ``over``,
  ``to_move``, ``hands`` (rank counts), ``cards``
  (card strings: with their suits under rules that read suits, where the hands must be
  given with suits), ``places``. A ``Move`` is a (rank, count) play, a sequence (``suit``
  set: ``rank`` its weakest rank index, ``count`` its length) or a pass; under rules that
  read suits a play may name its cards (``named``), else its default cards leave the hand
  (``play_cards``). ``random_options()`` and ``random_choice()``: the strategy
  ``random`` (docs/READINGS.md, "Strategies").
* ``run_round(rules, hands, leader, moves=(), strategies=None, stream=None)`` ->
  ``OracleResult`` (``events`` and ``illegal_index``: the index of the first illegal
  scripted move, or ``None``).
* ``run_game(game_dict, stream=None)`` -- the same from a ``docs/formats.md`` §2 game
  object.
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
    "opening_three": "clubs",
    "five_skips": False,
    "capital_falls": False,
    "seven_passes": False,
    "ten_discards": False,
    "suit_lock": "off",
    "spade_three_return": False,
    "sequences": "off",
    "sequence_revolution": 0,
    "eights_in_sequences": "end_trick",
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
    "uecda": {
        "jokers": 1,
        "passing": "out_of_trick",
        "clubs_three_opens": "every_round",
        "opening_three": "diamonds",
        "revolution": True,
        "sequence_revolution": 5,
        "eight_ends_trick": True,
        "suit_lock": "suits",
        "spade_three_return": True,
        "sequences": "above_highest",
    },
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
    "opening_three": ("clubs", "diamonds"),
    "five_skips": (False, True),
    "capital_falls": (False, True),
    "seven_passes": (False, True),
    "ten_discards": (False, True),
    "suit_lock": ("off", "suits"),
    "spade_three_return": (False, True),
    "sequences": ("off", "above_highest", "above_lowest"),
    "sequence_revolution": (0, 4, 5),
    "eights_in_sequences": ("end_trick", "plain"),
}


class IllegalMove(Exception):
    """A move the rules forbid in the current position."""


def resolve_rules(rules: str | dict | None) -> dict:
    """The round-level rules as a plain dict (preset name, or dict of docs/rules.md keys).

    The match-level keys (``MATCH_KEYS``: ``players``, ``exchange``, ...) are ignored. A key
    it does not know, a bad value of a round-level key, or a combination the rules-file
    table refuses (``after_out_lead = "last_in_trick"`` with ``passing = "may_return"``,
    ``opening_three = "diamonds"`` without ``clubs_three_opens``,
    ``spade_three_return`` without a joker, ``sequence_revolution`` above 0 without
    ``sequences``, ``eights_in_sequences = "plain"`` without ``sequences`` and
    ``eight_ends_trick``) raises ``ValueError``."""
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
    if out["opening_three"] != "clubs" and out["clubs_three_opens"] == "off":
        raise ValueError("opening_three needs clubs_three_opens")
    if out["spade_three_return"] and not out["jokers"]:
        raise ValueError("spade_three_return needs a joker")
    if out["sequence_revolution"] and out["sequences"] == "off":
        raise ValueError("sequence_revolution needs sequences")
    if out["eights_in_sequences"] == "plain" and (
        out["sequences"] == "off" or not out["eight_ends_trick"]
    ):
        raise ValueError('eights_in_sequences = "plain" needs sequences and eight_ends_trick')
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
    """Do these (resolved) rules read the cards' suits (docs/rules.md, "Cards with
    suits")?"""
    return bool(
        rules["suit_lock"] != "off" or rules["spade_three_return"] or rules["sequences"] != "off"
    )


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


def parse_sequence(cards) -> tuple[int, int, str]:
    """A play written as a sequence (docs/formats.md §2: 3 or more cards of one suit, each
    with its suit, in rank order, each joker in the place of the card it stands for) ->
    (weakest rank index, length, suit). Raises IllegalMove when it is not one: fewer than
    3 cards, no card but jokers, a card without its suit, two suits, ranks out of order
    or not consecutive, or a place beyond the 2 (a sequence does not go round)."""
    cards = [str(c).strip().upper() for c in cards]
    for card in cards:
        card_rank(card)
    real = [(i, c) for i, c in enumerate(cards) if c != "JK"]
    if len(cards) < 3 or not real:
        raise IllegalMove("not a combination: a sequence is 3 or more cards, one not a joker")
    suits = {card_suit(c) for _, c in real}
    if "" in suits or len(suits) != 1:
        raise IllegalMove("not a combination: a sequence's cards are of one suit, named")
    i, card = real[0]
    low = card_rank(card) - i
    if low < 0 or low + len(cards) - 1 > TWO:
        raise IllegalMove("not a combination: a sequence runs from 3 to 2 at most")
    if any(card_rank(c) != low + j for j, c in real):
        raise IllegalMove("not a combination: a sequence's cards are in rank order, in a row")
    return low, len(cards), suits.pop()


@dataclass(frozen=True)
class Move:
    """``rank is None`` means a pass; ``gift``: the ranks a play of 7s or 10s hands over
    (``None``: the strategy chooses). Under rules that read suits, ``named`` and
    ``gift_named`` are the cards with suits that the play and the gift name (jokers are
    never named); ``()``: the default cards (see ``OracleRound.play_cards``).

    A **sequence** (``sequences``) has its ``suit`` set: ``rank`` is its weakest rank index
    (the lowest, whatever the order in force), ``count`` its length, and ``named`` its
    cards as written, in rank order with each joker in its place (``()``: the cards the
    player holds, jokers where he lacks one; ``OracleRound.sequence_cards``)."""

    seat: int
    rank: int | None = None
    count: int = 0
    gift: tuple[int, ...] | None = None
    named: tuple[str, ...] = ()
    gift_named: tuple[str, ...] = ()
    suit: str = ""  # a sequence's suit; "" for a set (or a pass)

    @property
    def is_pass(self) -> bool:
        return self.rank is None

    @property
    def is_sequence(self) -> bool:
        return bool(self.suit)

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
        gift, gift_named = d.get("give"), ()
        if gift is not None:
            gift_named = named_cards(gift)
            gift = tuple(card_rank(str(c).strip().upper()) for c in gift)
        if len(ranks) != 1:  # not a set: a sequence, or nothing
            low, length, suit = parse_sequence(cards)
            named = tuple(str(c).strip().upper() for c in cards)
            return Move(seat, low, length, gift, named, gift_named, suit)
        return Move(seat, ranks.pop(), len(cards), gift, named_cards(cards), gift_named)


@dataclass
class Top:
    count: int
    rank: int  # the rank the top carries (transparent threes carry the covered rank)
    owner: int
    laid: int | None = None  # the rank of its cards (a joker is "a lone joker" by its cards)
    suits: frozenset[str] | None = None  # the suits of its cards (None: jokers, or no suits)
    suit: str = ""  # a sequence's suit (then ``rank`` is its weakest rank index, ``count``
    # its length); "" for a set


class OracleRound:
    """One round in progress: hands, the trick on the table, places, the events so far."""

    def __init__(
        self,
        rules,
        hands,
        leader: int,
        president: int | None = None,
        strategies=None,
        stream=None,
    ) -> None:
        self.rules = resolve_rules(rules)
        self.president = president  # the previous round's President (capital_falls)
        # each seat's strategy ("lowest" or "random"; it chooses the cards a play of 7s or
        # 10s hands over when the move does not say), and the stream "random" draws from
        self.strategies = list(strategies or ["lowest"] * len(hands))
        self.stream = stream
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
        if top.suit:  # a trick of sequences: only a sequence beats a sequence
            return None
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
        """Every legal move of the player to move: distinct (rank, count) plays, then the
        legal sequences (``legal_sequences``), plus the pass when he is not leading."""
        if self.over:
            return []
        seat = self.to_move
        moves = [Move(seat, rank, count) for rank, count in self.legal_plays()]
        moves += self.legal_sequences()
        if self.top is not None:
            moves.append(Move(seat))
        return moves

    # ----------------------------------------------------------------- sequences
    def sequence_cards(self, seat: int, low: int, length: int, suit: str) -> tuple[str, ...] | None:
        """The cards of the sequence ``low`` .. ``low + length - 1`` of ``suit`` from
        ``seat``'s hand: his own card wherever he holds it, a joker for each one he lacks
        (in rank order). None when it cannot be made: shorter than 3, beyond the 2, more
        cards lacking than he holds jokers, or nothing but jokers."""
        if length < 3 or low < 0 or low + length - 1 > TWO:
            return None
        held = set(self.cards[seat])
        wanted = [RANKS[rank] + suit for rank in range(low, low + length)]
        cards = tuple(card if card in held else "JK" for card in wanted)
        lacking = cards.count("JK")
        if lacking > self.hands[seat][JOKER] or lacking == length:
            return None
        return cards

    def sequence_beats(self, low: int, length: int) -> bool:
        """Does the sequence from ``low`` beat the sequence on top (as long)? Its weakest
        card must be above the top's strongest (``above_highest``) or weakest
        (``above_lowest``) card, "weakest", "strongest" and "above" under the order in
        force (reversed: a sequence's weakest card is its highest rank)."""
        top = self.top
        mine = [self.strength(rank) for rank in range(low, low + length)]
        theirs = [self.strength(rank) for rank in range(top.rank, top.rank + top.count)]
        bar = max(theirs) if self.rules["sequences"] == "above_highest" else min(theirs)
        return min(mine) > bar

    def sequence_allowed(self, low: int, length: int, suit: str) -> bool:
        """May the sequence (``low``, ``length``, ``suit``) be laid now (its cards aside)?
        A lead; or on a sequence of the same length that it beats, of the locked suit
        under a lock. Never on a set."""
        top = self.top
        if self.rules["sequences"] == "off":
            return False
        if top is None:
            return True
        if not top.suit or length != top.count:
            return False
        if self.lock is not None and self.lock != frozenset(suit):
            return False
        return self.sequence_beats(low, length)

    def legal_sequences(self) -> list[Move]:
        """The legal sequences of the player to move, with their cards (``named``), ordered
        by length, then weakest rank index, then suit (clubs, diamonds, hearts, spades):
        ``random``'s order (docs/READINGS.md, "Strategies")."""
        if self.over or self.rules["sequences"] == "off":
            return []
        top = self.top
        if top is not None and not top.suit:
            return []
        makeable = self.makeable_sequences(self.to_move, None if top is None else top.count)
        return [m for m in makeable if self.sequence_allowed(m.rank, m.count, m.suit)]

    def makeable_sequences(self, seat: int, length: int | None = None) -> list[Move]:
        """Every sequence ``seat`` can make from his hand (of ``length`` cards only, if
        given), whatever lies on the table, as moves naming their cards
        (``sequence_cards``), ordered by length, weakest rank index, suit."""
        held = set(self.cards[seat])
        jokers = self.hands[seat][JOKER]
        out = []
        for suit in SUITS:
            have = [RANKS[rank] + suit in held for rank in range(TWO + 1)]
            for low in range(TWO + 1):
                lacking = 0
                for high in range(low, TWO + 1):
                    lacking += not have[high]
                    size = high - low + 1
                    if lacking > jokers or (length is not None and size > length):
                        break
                    if size >= 3 and lacking < size and length in (None, size):
                        cards = tuple(
                            RANKS[rank] + suit if have[rank] else "JK"
                            for rank in range(low, high + 1)
                        )
                        out.append(Move(seat, low, size, named=cards, suit=suit))
        return sorted(out, key=lambda m: (m.count, m.rank, SUITS.index(m.suit)))

    def check_sequence(self, move: Move) -> tuple[str, ...]:
        """The cards of a sequence ``move``, or IllegalMove: sequences off, a sequence the
        player cannot make or that names other cards than his (a joker in the place of a
        card he holds, a card he lacks), or one that may not be laid on the top."""
        if self.rules["sequences"] == "off":
            raise IllegalMove('a sequence under sequences = "off"')
        cards = self.sequence_cards(move.seat, move.rank, move.count, move.suit)
        if cards is None:
            raise IllegalMove("a sequence he cannot make")
        if move.named and move.named != cards:
            raise IllegalMove(
                f"names {' '.join(move.named)}, not his cards {' '.join(cards)} (a joker "
                "stands only for a card he lacks)"
            )
        if not self.sequence_allowed(move.rank, move.count, move.suit):
            raise IllegalMove("a sequence that may not be laid on the top")
        return cards

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
        if move.is_sequence:
            cards = self.check_sequence(move)
            return cards, self.handed_over(move, [])
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
        else those the seat's strategy gives back: ``lowest`` its weakest cards (normal
        order, lowest suits first), ``random`` ranks drawn from ``stream`` (each rank's
        lowest suits first). Raises IllegalMove for a gift of the wrong size or of cards
        not left."""
        owed = self.owed(move)
        if move.gift is None and owed and self.strategies[move.seat] == "random":
            move = replace(move, gift=self.random_give_back(left, owed))
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
        if move.is_pass or move.is_sequence:  # a sequence is no play of 7s or 10s
            return 0
        if not (
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
        if plays:
            rank, count = min(plays, key=lambda p: (self.strength(p[0]), p[1]))
            return Move(seat, rank, count)
        sequences = self.legal_sequences()  # on a sequence: the weakest weakest card
        if sequences:
            return min(
                sequences,
                key=lambda m: (
                    min(self.strength(rank) for rank in range(m.rank, m.rank + m.count)),
                    SUITS.index(m.suit),
                ),
            )
        return Move(seat)

    def random_options(self) -> list[Move]:
        """The options of the strategy ``random``, in its order (docs/READINGS.md): the
        legal (rank, count) plays by count, then rank index; the legal sequences by
        length, weakest rank index, suit; then the pass when not leading."""
        seat = self.to_move
        plays = sorted(self.legal_plays(), key=lambda p: (p[1], p[0]))
        moves = [Move(seat, rank, count) for rank, count in plays] + self.legal_sequences()
        if self.top is not None:
            moves.append(Move(seat))
        return moves

    def random_choice(self) -> Move:
        """The strategy ``random``: one of ``random_options()`` drawn with
        ``stream.below(len(options))`` (nothing drawn for a single option). A play of 7s
        or 10s then hands over cards of its give-back (``random_give_back``, drawn when
        the play is applied)."""
        options = self.random_options()
        return options[0] if len(options) == 1 else options[self.stream.below(len(options))]

    def random_give_back(self, left: list[str], k: int) -> tuple[int, ...]:
        """The ranks of ``random``'s give-back of ``k`` cards from the cards ``left``: one
        card at a time, ``below`` the number of cards still in hand (ordered by rank
        index), nothing drawn for the last card. Being ranks, they leave the hand each
        rank's lowest suits first (docs/rules.md, "Cards with suits")."""
        pool = sorted(map(card_rank, left))
        return tuple(
            sorted(
                pool.pop(0 if len(pool) == 1 else self.stream.below(len(pool))) for _ in range(k)
            )
        )

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
    def _lay_set(
        self, move: Move, cards: tuple[str, ...], gift: list[str]
    ) -> tuple[bool, int, bool]:
        """Lay a set: its events (the play, a gift or discard) and what it does to the
        trick (lock, run, order, top). Returns (the trick ends at once, the players it
        skips, 2s or jokers for ``no_finish_on_two``)."""
        r = self.rules
        seat, rank, count = move.seat, move.rank, move.count
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
        ends_now = bool(
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
        skips = 1 if skip else 0
        if r["five_skips"] and rank == FIVE:
            skips = max(skips, count)
        return ends_now, skips, rank in (TWO, JOKER)

    def _lay_sequence(self, move: Move, cards: tuple[str, ...]) -> tuple[bool, int, bool]:
        """Lay a sequence (docs/rules.md, ``sequences``): of the rules of ranks only the 8
        acts on it (``eight_ends_trick`` with ``eights_in_sequences = "end_trick"``, a card
        or a joker in the 8's place), and ``no_finish_on_two`` when it holds a 2 or a
        joker; one of ``sequence_revolution`` cards or more turns the round's order from
        the next play. It skips nobody, hands nothing over, breaks the run of
        ``accumulation_burns``, and two of one suit in a row lock the trick to it.
        Returns what ``_lay_set`` does."""
        r = self.rules
        seat, low, length, suit = move.seat, move.rank, move.count, move.suit
        places = range(low, low + length)
        self._take(seat, cards)
        self.events.append({"event": "play", "seat": seat, "cards": list(cards)})
        suits = frozenset(suit)  # its jokers take its suit
        follows = self.top is not None and suits == self.top.suits
        if r["suit_lock"] == "suits" and self.lock is None and follows:
            self.lock = suits
        self.run_rank, self.run_count = None, 0
        ends_now = (
            r["eight_ends_trick"] and r["eights_in_sequences"] == "end_trick" and EIGHT in places
        )
        if r["sequence_revolution"] and length >= r["sequence_revolution"]:
            self.reversed = not self.reversed
        self.top = Top(length, low, seat, None, suits, suit)
        self.since_top = set()
        return ends_now, 0, TWO in places or "JK" in cards

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

        if move.is_sequence:
            ends_now, times, on_twos = self._lay_sequence(move, cards)
        else:
            ends_now, times, on_twos = self._lay_set(move, cards, gift)

        if not self.holds(seat):
            if r["no_finish_on_two"] and on_twos:
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
        for _ in range(times):  # players skipped one after the other
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
    rules,
    hands,
    leader: int,
    moves=(),
    strategies=None,
    president: int | None = None,
    stream=None,
) -> OracleResult:
    """Play one round: the scripted ``moves`` first (dicts or ``Move``), then each seat's
    strategy (``strategies``: ``"lowest"`` or ``"random"`` by seat; default all
    ``lowest``); ``president``: the seat of the previous round's President, if any;
    ``stream``: what ``random`` draws from (an object with ``below(n)``, the replay's
    stream of its seed)."""
    strategies = list(strategies or ["lowest"] * len(hands))
    if any(s not in ("lowest", "random") for s in strategies):
        raise ValueError("the oracle only plays the strategies 'lowest' and 'random'")
    if "random" in strategies and stream is None:
        raise ValueError("the strategy 'random' needs a stream to draw from")
    rnd = OracleRound(rules, hands, leader, president, strategies, stream)
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
        if strategies[rnd.to_move] == "random":
            rnd.apply(rnd.random_choice())
        else:
            rnd.apply(rnd.lowest_move())
    return result


def run_game(game: dict, stream=None) -> OracleResult:
    """A docs/formats.md §2 game object through the oracle (``stream``: see
    :func:`run_round`)."""
    return run_round(
        game.get("rules", {}),
        game["hands"],
        game["leader"],
        game.get("moves", []),
        game.get("strategies"),
        game["roles"].index("president") if game.get("roles") else None,
        stream,
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
    rng,
    n: int,
    jokers: int,
    partial: bool = False,
    suits: bool = False,
    clumped: bool = False,
    runs: bool = False,
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
    only ("7"); either way the deck's cards are distinct. Runs (instead of clumped): the
    deck ordered by suit, then rank, jokers put in at random, a few random swaps, dealt in
    consecutive blocks, so that hands hold long sequences of one suit (``sequences``).
    """
    if runs:
        deck = [f"{rank}{suit}" for suit in SUITS for rank in RANKS[:JOKER]]
        start = rng.randrange(len(deck))
        deck = deck[start:] + deck[:start]
        for _ in range(jokers):
            deck.insert(rng.randrange(len(deck) + 1), "JK")
        for _ in range(rng.randrange(4, 16)):
            i, j = rng.randrange(len(deck)), rng.randrange(len(deck))
            deck[i], deck[j] = deck[j], deck[i]
        sizes = [len(deck) // n + (1 if i < len(deck) % n else 0) for i in range(n)]
        rng.shuffle(sizes)
        if partial:
            sizes = [rng.randint(1, size) for size in sizes]
        hands, pos = [], 0
        for size in sizes:
            hands.append(sorted(deck[pos : pos + size], key=card_key))
            pos += size
        if not suits:
            hands = [[c if c == "JK" else c[:-1] for c in hand] for hand in hands]
        return hands
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
    """A random legal move: a (rank, count) play, a sequence or a pass (when there are
    legal sequences and other moves, a sequence one time in two, so that the sets are not
    drowned by the many sequences of a lead); under rules that read suits, a set names
    random cards it may lay one time in two. A play of 7s or 10s hands over random cards
    one time in two (under rules that read suits, named or by rank)."""
    moves = rnd.legal_moves()
    sequences = [m for m in moves if m.is_sequence]
    if sequences and len(sequences) < len(moves):
        others = [m for m in moves if not m.is_sequence]
        moves = sequences if rng.random() < 0.5 else others
    move = rng.choice(moves)
    if (
        rnd.suited
        and not move.is_pass
        and not move.is_sequence  # a sequence names its cards already
        and move.rank != JOKER
        and rng.random() < 0.5
    ):
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
