"""The kernel's data layout: rules as an int array, the round state as an int array.

Numba freezes module globals at compile time, so the rules reach the kernel as data (and
one compile serves every rule set): one ``int64`` array ``R`` indexed by the ``R_*``
constants below, numbered from the rule spec (:mod:`simulator.rules.options`). This is
the one kernel module that names options; the rest of the kernel reads them by slot or
by flag bit, named by effect (``QUAD``, ``EIGHTS`` …).
The state of the round being played is the ``int64`` array ``S`` (``S_*`` constants);
hands are ``H[pos]`` bitmasks (see :mod:`simulator.kernel.bits`), ``played`` holds 14
counts of the cards played this round and ``roles[pos]`` the previous round's role
index (-1 in a match's first round). Strategies read all of these: they are the
kernel's observation.
"""

from __future__ import annotations

from itertools import accumulate

import numpy as np

from simulator.rules.cards import MAX_COPIES
from simulator.rules.options import CHOICES, KEYS, MAX_EXCHANGE_PAIRS, MAX_PLAYERS, Rules
from simulator.rules.roles import ROLE_NAMES, exchange_pairs, role_of

DECK = sum(MAX_COPIES)  # room for the largest deck (52 cards and 2 jokers)

# ---------------------------------------------------------------- rules array R
# The options of the rule book (simulator.rules.options), in its order, one slot each: an
# integer as it is, a yes/no rule as 0/1, a choice as its index in the allowed values. The
# exchange and the points take several slots (WIDTH). Two words of rule flags follow,
# computed once per rule set by rules_array, so a round reads one word for many rules.
WIDTH = {"exchange": 1 + MAX_EXCHANGE_PAIRS, "points": MAX_PLAYERS + 1}
_STARTS = list(accumulate((WIDTH.get(key, 1) for key in KEYS), initial=0))
SLOT: dict[str, int] = dict(zip(KEYS, _STARTS[:-1], strict=True))  # option → its first slot
R_N = SLOT["players"]
R_JOKERS = SLOT["jokers"]  # 0, 1 or 2
R_DEALER = SLOT["dealer"]  # BY_* below
R_RESEAT = SLOT["reseat"]  # players sit in finishing order
R_EQUAL = SLOT["equal_rank"]  # EQUAL_OFF: equal plays illegal; else legal (SKIP: they skip)
R_LARGER = SLOT["larger_sets"]  # LARGER_* below
R_TRANSP = SLOT["transparent_threes"]  # threes take the rank they cover
R_QUAD = SLOT["quad_burns"]  # fours beat anything and end the trick
R_REVOL = SLOT["revolution"]  # each four reverses the order
R_NOFIN2 = SLOT["no_finish_on_two"]  # going out on 2s takes the worst free place
R_NEXCH = SLOT["exchange"]  # number of exchange pairs that take part
R_EXCH = R_NEXCH + 1  # MAX_EXCHANGE_PAIRS slots: cards exchanged by pair i
R_OPENER = SLOT["opener"]  # BY_* below
R_POINTS = SLOT["points"]  # MAX_PLAYERS + 1 slots: points of place 1..n (slot 0 unused)
R_TARGET = SLOT["target"]  # 0: no target
R_EIGHT_ENDS = SLOT["eight_ends_trick"]  # 8s end the trick
R_JACK_BACK = SLOT["jack_back"]  # jacks reverse the order until the trick ends
R_ACCUM = SLOT["accumulation_burns"]  # a run of 4 cards of one rank burns
R_OUT_ENDS = SLOT["out_ends_trick"]  # going out ends the trick
R_CLUBS = SLOT["clubs_three_opens"]  # CLUBS_OFF, 1: the first round, CLUBS_EVERY
R_OPENING = SLOT["opening_three"]  # the card id of the 3 it follows: 0 (clubs), 1 (diamonds)
R_RUN_TURNS = SLOT["sequence_revolution"]  # 0, or the length of a sequence that turns the order
R_FLAGS = _STARTS[-1]  # bits of the rules a move's consequences read
R_TRICK_FLAGS = R_FLAGS + 1  # bits of the table rules (catalogues II and III), 0: none
R_SIZE = R_TRICK_FLAGS + 1


def code(key: str, value: str) -> int:
    """The kernel's number for a choice: its index in the option's allowed values."""
    return CHOICES[key].index(value)


# values of R_DEALER and R_OPENER: whose position the rule names (the same numbers for both)
BY_PRESIDENT = code("opener", "president")
BY_LEFT = code("opener", "left_of_dealer")  # dealer: left of the previous dealer
LARGER_OFF = code("larger_sets", "off")
LARGER_HIGHER = code("larger_sets", "higher_rank")
LARGER_ANY = code("larger_sets", "any")
EQUAL_OFF = code("equal_rank", "off")
CLUBS_OFF = code("clubs_three_opens", "off")
CLUBS_EVERY = code("clubs_three_opens", "every_round")

# Bits of R[R_FLAGS] (read by simulator.kernel.step.rule_flags), named by effect
SKIP = 1  # equal plays skip the next player
TRANSPARENT = 2  # threes take the rank they cover
QUAD = 4  # fours beat anything and end the trick
REVERSES = 8  # each four reverses the order for the rest of the round
OUT_OF_TRICK = 16  # a pass leaves the trick
TWO_ENDS = 32  # 2s end the trick
TWOS_LAST = 64  # going out on 2s or jokers takes the worst free place
# Bits of R[R_TRICK_FLAGS] (simulator.kernel.step.trick_rule_flags)
EIGHTS = 1  # 8s end the trick
JACKS = 2  # jacks reverse the order until the trick ends
ACCUMULATION = 4  # a run of 4 cards of one rank burns the pile
OUT_ENDS = 8  # going out ends the trick
LAST_IN = 16  # after a trick topped by a player who went out, the one left in it leads
CAPITAL = 32  # a President beaten to first place finishes last at once
FIVES = 64  # a play of 5s skips a player per 5
SEVENS = 128  # a play of 7s gives a card per 7 to the next player holding cards
TENS = 256  # a play of 10s discards a card per 10
LOCK = 512  # two plays in a row of the same suits lock the trick to them
SPADE3 = 1024  # a lone 3 of spades beats a lone joker and ends the trick
RUNS_HIGH = 2048  # sequences, beaten above the top's strongest card
RUNS_LOW = 4096  # sequences, beaten above the top's weakest card
PLAIN_EIGHTS = 8192  # an 8 in a sequence does not end the trick
RUNS = RUNS_HIGH | RUNS_LOW  # sequences may be laid (simulator.kernel.runs)
SUITED = LOCK | SPADE3 | RUNS  # the rules that read suits: the round follows each card
# Each flag: (its word, its bit, the option and the value that set it)
FLAGS: tuple[tuple[int, int, str, object], ...] = (
    (R_FLAGS, SKIP, "equal_rank", "skip"),
    (R_FLAGS, TRANSPARENT, "transparent_threes", True),
    (R_FLAGS, QUAD, "quad_burns", True),
    (R_FLAGS, REVERSES, "revolution", True),
    (R_FLAGS, OUT_OF_TRICK, "passing", "out_of_trick"),
    (R_FLAGS, TWO_ENDS, "two_ends_trick", True),
    (R_FLAGS, TWOS_LAST, "no_finish_on_two", True),
    (R_TRICK_FLAGS, EIGHTS, "eight_ends_trick", True),
    (R_TRICK_FLAGS, JACKS, "jack_back", True),
    (R_TRICK_FLAGS, ACCUMULATION, "accumulation_burns", True),
    (R_TRICK_FLAGS, OUT_ENDS, "out_ends_trick", True),
    (R_TRICK_FLAGS, LAST_IN, "after_out_lead", "last_in_trick"),
    (R_TRICK_FLAGS, CAPITAL, "capital_falls", True),
    (R_TRICK_FLAGS, FIVES, "five_skips", True),
    (R_TRICK_FLAGS, SEVENS, "seven_passes", True),
    (R_TRICK_FLAGS, TENS, "ten_discards", True),
    (R_TRICK_FLAGS, LOCK, "suit_lock", "suits"),
    (R_TRICK_FLAGS, SPADE3, "spade_three_return", True),
    (R_TRICK_FLAGS, RUNS_HIGH, "sequences", "above_highest"),
    (R_TRICK_FLAGS, RUNS_LOW, "sequences", "above_lowest"),
    (R_TRICK_FLAGS, PLAIN_EIGHTS, "eights_in_sequences", "plain"),
)

# ---------------------------------------------------------------- round state S
S_N = 0  # players
S_TURN = 1  # position to move
S_TOP_RANK = 2  # rank the top carries (-1: none)
S_TOP_COUNT = 3  # cards in the top (0: the player to move leads; a sequence: simulator.kernel.runs)
S_OWNER = 4  # position that laid the top (-1: none)
S_REV = 5  # 1 while the order in force is reversed (revolutions, then jack-back on top)
S_ANSWERED = 6  # bitmask: passed or skipped since the top was laid
S_OOT = 7  # bitmask: passed earlier in this trick (out_of_trick)
S_ACTIVE = 8  # bitmask: still holding cards
S_BEST_FREE = 9  # best place still free
S_WORST_FREE = 10  # worst place still free
S_OVER = 11  # 1 once the round is over
S_TRICKS = 12  # tricks begun
S_PLAYS = 13
S_PASSES = 14
S_SKIPS = 15
S_TRACE = 16  # entries written to the trace (testing)
S_LEADER = 17  # position that led the round
# From here on, the slots step writes in place (the State tuple does not hold them): the
# table rules' state, then who the latest skip skipped and why; and the round's President,
# set when the round starts (capital_falls reads it).
S_IN_PLACE = 18
S_JACK = 18  # 1 while a jack-back is in force (S_REV includes it; the trick's end undoes it)
S_RUN = 19  # cards in the trick's latest run of one rank (ACCUMULATION)
S_SKIPPED = 20  # the positions the latest skipping play skipped, a bit each (0: none this round)
S_SKIP_PLAY = 21  # S_PLAYS when it happened: it skipped the top on the table if they are equal
S_SKIP_BY = 22  # the rule that made it (0: none): SKIP, or a bit of R_TRICK_FLAGS << TABLE_SHIFT
S_PRESIDENT = 23  # position of the round's President (-1: none, as in a match's first round)
# Under rules that read suits (SUITED) only: the suits of the top and of the lock (a bit
# per suit), and what the suits of the player to move allow (simulator.kernel.suits).
S_TOP_SUITS = 24  # the top's suits (0: none, or jokers only)
S_LOCK = 25  # the suits the trick is locked to (0: none)
S_SUIT_OK = 26  # the plays (a plays mask) his suits allow, all when nothing restricts them
S_SUIT_ADD = 27  # the plays his suits add to those of the ranks (the 3 of spades on a joker)
S_SUIT_AT = 28  # S_PLAYS + S_PASSES when they were written: they hold in that position only
# The cards a strategy chooses for its play (a card mask), and the position it chose them
# in (S_PLAYS + S_PASSES; -1: none): a play without them lays the rules' default cards.
S_PICK = 29
S_PICK_AT = 30
S_SIZE = 31
TABLE_SHIFT = 32  # S_SKIP_BY holds a table rule's bit this far up, apart from R_FLAGS' bits


def flag_code(key: str) -> int:
    """The flag of option ``key`` as one number (``S[S_SKIP_BY]``, the rule that made a
    skip): a bit of ``R_FLAGS`` as it is, a bit of ``R_TRICK_FLAGS`` shifted up by
    :data:`TABLE_SHIFT`."""
    word, bit = next((w, b) for w, b, k, _ in FLAGS if k == key)
    return bit if word == R_FLAGS else bit << TABLE_SHIFT


NO_ROLE = -1
ROLE_INDEX = {name: i for i, name in enumerate(ROLE_NAMES)}


def rules_array(rules: Rules) -> np.ndarray:
    """The rules as the kernel's ``R`` array: a loop over the options, then the flags."""
    r = np.zeros(R_SIZE, dtype=np.int64)
    for key in KEYS:
        if key not in WIDTH:
            value = getattr(rules, key)
            r[SLOT[key]] = code(key, value) if isinstance(value, str) else int(value)
    for i, k in exchange_pairs(rules):
        r[R_NEXCH] = i
        r[R_EXCH + i - 1] = k
    for place in range(1, rules.players + 1):
        r[R_POINTS + place] = rules.points.for_place(place, rules.players)
    for word, bit, key, value in FLAGS:
        if getattr(rules, key) == value:
            r[word] |= bit
    return r


def role_table(players: int) -> np.ndarray:
    """Role index of each place 1..n (slot 0 unused)."""
    table = np.full(MAX_PLAYERS + 1, NO_ROLE, dtype=np.int64)
    for place in range(1, players + 1):
        table[place] = ROLE_INDEX[role_of(place, players)]
    return table
