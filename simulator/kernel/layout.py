"""The kernel's data layout: rules as an int array, the round state as an int array.

Numba freezes module globals at compile time, so the rules reach the kernel as data (and
one compile serves every rule set): one ``int64`` array ``R`` indexed by the ``R_*``
constants below.
The state of the round being played is the ``int64`` array ``S`` (``S_*`` constants);
hands are ``H[pos]`` bitmasks (see :mod:`simulator.kernel.bits`), ``played`` holds 14
counts of the cards played this round and ``roles[pos]`` the previous round's role
index (-1 in a match's first round). Strategies read all of these: they are the
kernel's observation.
"""

from __future__ import annotations

import numpy as np

from simulator.rules.cards import MAX_COPIES
from simulator.rules.options import MAX_PLAYERS, Rules
from simulator.rules.roles import ROLE_NAMES, exchange_pairs, role_of

DECK = sum(MAX_COPIES)  # room for the largest deck (52 cards and 2 jokers)

# ---------------------------------------------------------------- rules array R
R_N = 0  # players
R_JOKERS = 1  # 0 or 2
R_DEALER = 2  # 0 scum, 1 president, 2 rotate
R_RESEAT = 3  # 0/1
R_EQUAL = 4  # equal_rank: 0 off, 1 skip, 2 allow (equal plays legal, no skip)
R_LARGER = 5  # 0 off, 1 higher_rank, 2 any
R_TRANSP = 6  # transparent_threes
R_TWO_ENDS = 7  # two_ends_trick
R_QUAD = 8  # quad_burns
R_REVOL = 9  # revolution
R_OOT = 10  # 1: passing = "out_of_trick"
R_NOFIN2 = 11  # no_finish_on_two
R_OPENER = 12  # 0 scum, 1 president, 2 left_of_dealer
R_TARGET = 13  # 0: no target
R_NEXCH = 14  # number of exchange pairs that take part
R_EXCH = 15  # 4 slots: cards exchanged by pair i
R_POINTS = 19  # 9 slots: points of place 1..n (slot 0 unused)
R_EIGHT_ENDS = 28  # eight_ends_trick
R_JACK_BACK = 29  # jack_back
R_ACCUM = 30  # accumulation_burns
R_OUT_ENDS = 31  # out_ends_trick
R_LAST_IN = 32  # 1: after_out_lead = "last_in_trick"
R_CLUBS = 33  # clubs_three_opens: 0 off, 1 first_round, 2 every_round
R_SIZE = 34

# values of R_DEALER and R_OPENER: whose position the rule names
BY_SCUM = 0
BY_PRESIDENT = 1
BY_LEFT = 2  # dealer: left of the previous dealer; opener: left of the dealer
DEALER_CODES = {"scum": BY_SCUM, "president": BY_PRESIDENT, "rotate": BY_LEFT}
OPENER_CODES = {"scum": BY_SCUM, "president": BY_PRESIDENT, "left_of_dealer": BY_LEFT}
# values of R_LARGER
LARGER_OFF = 0
LARGER_HIGHER = 1
LARGER_ANY = 2
LARGER_CODES = {"off": LARGER_OFF, "higher_rank": LARGER_HIGHER, "any": LARGER_ANY}
# values of R_EQUAL
EQUAL_SKIP = 1
EQUAL_CODES = {"off": 0, "skip": EQUAL_SKIP, "allow": 2}
# values of R_CLUBS
CLUBS_FIRST = 1
CLUBS_EVERY = 2
CLUBS_CODES = {"off": 0, "first_round": CLUBS_FIRST, "every_round": CLUBS_EVERY}

# ---------------------------------------------------------------- round state S
S_N = 0  # players
S_TURN = 1  # position to move
S_TOP_RANK = 2  # rank the top carries (-1: none)
S_TOP_COUNT = 3  # cards in the top (0: the player to move leads)
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
S_JACK = 18  # 1 while a jack-back is in force (S_REV includes it; the trick's end undoes it)
S_RUN = 19  # cards in the trick's latest run of one rank (accumulation_burns)
S_SIZE = 20

NO_ROLE = -1
ROLE_INDEX = {name: i for i, name in enumerate(ROLE_NAMES)}


def rules_array(rules: Rules) -> np.ndarray:
    """The rules as the kernel's ``R`` array."""
    n = rules.players
    r = np.zeros(R_SIZE, dtype=np.int64)
    r[R_N] = n
    r[R_JOKERS] = rules.jokers
    r[R_DEALER] = DEALER_CODES[rules.dealer]
    r[R_RESEAT] = rules.reseat
    r[R_EQUAL] = EQUAL_CODES[rules.equal_rank]
    r[R_LARGER] = LARGER_CODES[rules.larger_sets]
    r[R_TRANSP] = rules.transparent_threes
    r[R_TWO_ENDS] = rules.two_ends_trick
    r[R_QUAD] = rules.quad_burns
    r[R_REVOL] = rules.revolution
    r[R_OOT] = rules.passing == "out_of_trick"
    r[R_NOFIN2] = rules.no_finish_on_two
    r[R_OPENER] = OPENER_CODES[rules.opener]
    r[R_TARGET] = rules.target
    r[R_EIGHT_ENDS] = rules.eight_ends_trick
    r[R_JACK_BACK] = rules.jack_back
    r[R_ACCUM] = rules.accumulation_burns
    r[R_OUT_ENDS] = rules.out_ends_trick
    r[R_LAST_IN] = rules.after_out_lead == "last_in_trick"
    r[R_CLUBS] = CLUBS_CODES[rules.clubs_three_opens]
    for i, k in exchange_pairs(rules):
        r[R_NEXCH] = i
        r[R_EXCH + i - 1] = k
    for place in range(1, n + 1):
        r[R_POINTS + place] = rules.points.for_place(place, n)
    return r


def role_table(players: int) -> np.ndarray:
    """Role index of each place 1..n (slot 0 unused)."""
    table = np.full(MAX_PLAYERS + 1, NO_ROLE, dtype=np.int64)
    for place in range(1, players + 1):
        table[place] = ROLE_INDEX[role_of(place, players)]
    return table
