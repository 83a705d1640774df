"""What a person can see at the table, and the plays a tip can tell: ``advised``'s kernel.

``president advise`` (:mod:`simulator.runs.advice`) mines tips from ``champion``'s
decisions. A tip is *when these things a person can see hold, make this kind of play*:
its conditions read :func:`table_view` — the cards in your hand, the fewest cards an
opponent holds, whether you lead, the card to beat … (:data:`VIEW`, each a whole number,
declared once with the words that say it) — and its play is one of :data:`PLAYS`, a rule
a person can follow that names one move (:func:`play_of`: "your weakest cards that can
go", "pass"). The strategy ``advised`` is ``rules-aware`` with such tips in its row
(:mod:`strategies.specs`): the first tip whose conditions hold and whose play exists
makes the move; otherwise ``rules-aware`` does. With no tip it is ``rules-aware`` move
for move, which is what a tip's worth is measured against.

Only public facts and the player's own hand are read, as every heuristic does.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.kernel.bits import PLAIN, RANKS, U0, U1, count_of, ctz, highest, popc
from simulator.kernel.config import HOT, INLINE
from simulator.kernel.layout import (
    JACKS,
    R_FLAGS,
    R_JOKERS,
    R_TRICK_FLAGS,
    S_ACTIVE,
    S_N,
    S_REV,
    S_TOP_COUNT,
    S_TOP_RANK,
)
from simulator.kernel.legal import legal_plays, play_count, play_rank, strength
from simulator.kernel.runs import is_run, run_length
from simulator.kernel.trick import next_to_ask, revolts
from simulator.rules.cards import JACK, JOKER, TWO
from strategies.hand import (
    fold,
    groups,
    outside,
    unbeatable_groups,
    unbeatable_plays,
    weakest_of,
    whole,
)
from strategies.linear import situation
from strategies.linear_terms import ends_trick_now
from strategies.rules_aware import rules_aware_move
from strategies.specs import ADVISED_TIPS, TIP_SLOT, TIP_WIDTH

NOBODY = 20  # a card count that is nobody's: no opponent left, or no card to beat yet
LOW = 4  # the strength at or below which a card is low: 3 to 7 in the normal order

# What a tip may read, in the order of table_view (a tip names one by its place, from 1):
# (name, what it is, in words). The words are the page's; the names, the files'.
VIEW = (
    ("cards", "cards in your hand"),
    ("ranks", "different ranks in your hand"),
    ("sure", "groups in your hand that nobody can beat"),
    ("fewest", "cards of the opponent holding fewest"),
    ("next", "cards of the next player"),
    ("leading", "you lead (1) or follow (0)"),
    ("size", "cards in each play of the trick (0: you lead)"),
    ("to_beat", "strength of the card to beat, 1 = the weakest rank (0: you lead)"),
    ("best", "strength of your strongest card, 1 = the weakest rank"),
    ("best_out", "strength of the strongest card still in other hands"),
    ("low", "your cards among the five weakest ranks"),
    ("players", "players still holding cards"),
    ("reversed", "the order is reversed (1) or not (0)"),
    ("role", "your role: 0 none yet, 1 President … 5 Scum"),
    ("owner", "cards of the player who laid the card to beat"),
    ("twos", "your 2s and jokers"),
    ("last", "your pass would end the trick (1) or not (0)"),
    ("cheapest", "strength of your weakest cards that can go (0: none can)"),
    ("breaks", "your weakest cards that can go break a group (1) or not (0)"),
)
VIEW_SIZE = len(VIEW) + 1  # table_view's length: place 0 is "no condition" (always 0)

# The plays a tip may tell, in the order play_of numbers them (from 1; 0: no tip).
PLAYS = (
    ("pass", "pass"),
    ("weakest", "play your weakest cards that can go, the whole group"),
    ("strongest", "play your strongest cards that can go"),
    ("sure", "play your weakest group that nobody can beat"),
    ("whole", "play the weakest cards that break none of your pairs or threes"),
    ("largest", "lead your largest group"),
    ("ender", "play cards that end the trick by a table rule (the weakest such)"),
    ("jacks", "play your jacks, reversing the order"),
    ("revolt", "play four of a kind, starting a revolution"),
    ("second", "keep your weakest cards and play the next weakest that can go, the whole group"),
    ("lone", "play the weakest card you hold only one of (not a 2 or a joker)"),
)
(PASS, WEAKEST, STRONGEST, SURE, WHOLE, LARGEST, ENDER, JACKS_PLAY, REVOLT, SECOND,
 LONE) = range(1, 12)  # fmt: skip
NO_PLAY = (np.int64(0), np.int64(-1))  # play_of's answer when the play does not exist


@njit(**INLINE)
def level(s):
    """A strength as a tip reads it: 1 for the weakest rank (a 3 in the normal order)."""
    return float(s + 1)


@njit(**INLINE)
def strongest_of(ranks, rev):
    """The strongest rank of a non-empty rank mask under the order in force."""
    if ranks & (U1 << np.uint64(JOKER)) != U0:
        return JOKER
    plain = ranks & PLAIN
    return ctz(plain) if rev else highest(plain)


@njit(**INLINE)
def low_cards(h, rev):
    """The cards of ``h`` of strength at most :data:`LOW` in the order in force."""
    n = 0
    for r in range(TWO + 1):
        if strength(r, rev) <= LOW:
            n += count_of(h, r)
    return n


@njit(**HOT)
def table_view(pos, S, H, R, played, roles):
    """What the player at ``pos`` sees, as :data:`VIEW` says, from place 1 (place 0 is 0).

    Whole numbers as floats, so that a tip's bounds compare without rounding."""
    h, out, u, fewest, owner_cards, last = situation(pos, S, H, R, played)
    rev = S[S_REV]
    tc = S[S_TOP_COUNT]
    following = tc != 0
    nxt = next_to_ask(S[S_N], pos, -1, S[S_ACTIVE] & ~(1 << pos))
    size = float(run_length(tc)) if is_run(tc) else float(tc)
    held = h & RANKS
    outs = fold(out)  # the ranks still in other hands
    role = roles[pos] + 1 if roles[pos] >= 0 else 0
    r, c = weakest_in(legal_plays(h, S, R), rev)
    return (
        0.0,
        float(popc(h)),
        float(groups(h)),
        float(popc(unbeatable_groups(h, u))),
        float(min(fewest, NOBODY)),
        float(popc(H[nxt])) if nxt >= 0 else float(NOBODY),
        0.0 if following else 1.0,
        size,
        level(strength(S[S_TOP_RANK], rev)) if following else 0.0,
        level(strength(strongest_of(held, rev), rev)) if held != U0 else 0.0,
        level(strength(strongest_of(outs, rev), rev)) if outs != U0 else 0.0,
        float(low_cards(h, rev)),
        float(popc(np.uint64(S[S_ACTIVE]))),
        float(rev),
        float(role),
        float(min(owner_cards, NOBODY)),
        float(count_of(h, TWO) + count_of(h, JOKER)),
        1.0 if last else 0.0,
        level(strength(r, rev)) if c > 0 else 0.0,
        1.0 if c > 0 and count_of(h, r) > c else 0.0,
    )


@njit(**INLINE)
def whole_group(m, r):
    """The largest count of rank ``r`` among the plays ``m`` (0 if none)."""
    for c in range(4, 0, -1):
        if (m >> np.uint64(16 * (c - 1) + r)) & U1 != U0:
            return c
    return 0


@njit(**INLINE)
def weakest_in(m, rev):
    """The weakest rank of the plays ``m``, played as its largest count there."""
    if m == U0:
        return NO_PLAY
    r = weakest_of(fold(m), rev)
    return np.int64(r), np.int64(whole_group(m, r))


@njit(**INLINE)
def second_in(m, rev):
    """The second weakest rank of the plays ``m``, played as its largest count there: what
    a player who keeps his weakest cards for later plays (``champion`` keeps its 3s where
    jacks or a revolution may turn the order)."""
    ranks = fold(m)
    if popc(ranks) < 2:
        return NO_PLAY
    rest = ranks & ~(U1 << np.uint64(weakest_of(ranks, rev)))
    r = weakest_of(rest, rev)
    return np.int64(r), np.int64(whole_group(m, r))


@njit(**INLINE)
def lone_in(m, h, rev):
    """The weakest single card of the plays ``m`` whose rank ``h`` holds once, below the
    2s and jokers: a card that breaks nothing and would otherwise be left alone."""
    singles = whole(m, h) & RANKS & ~(U1 << np.uint64(TWO)) & ~(U1 << np.uint64(JOKER))
    if singles == U0:
        return NO_PLAY
    return np.int64(weakest_of(singles, rev)), np.int64(1)


@njit(**INLINE)
def largest_in(m, rev):
    """The play of ``m`` with the most cards, the weakest rank among the largest."""
    for c in range(4, 0, -1):
        at_c = (m >> np.uint64(16 * (c - 1))) & RANKS
        if at_c != U0:
            return np.int64(weakest_of(at_c, rev)), np.int64(c)
    return NO_PLAY


@njit(**INLINE)
def filtered(m, S, R, what):
    """The plays of ``m`` that end the trick (``what`` = ENDER) or revolt (REVOLT)."""
    keep = U0
    x = m
    while x != U0:
        b = ctz(x)
        x &= x - U1
        r, c = play_rank(b), play_count(b)
        if (what == ENDER and ends_trick_now(r, c, S, R)) or (
            what == REVOLT and revolts(c, R[R_FLAGS])
        ):
            keep |= U1 << np.uint64(b)
    return keep


@njit(**HOT)
def play_of(what, pos, S, H, R, played):
    """The move play ``what`` of :data:`PLAYS` names for the player at ``pos``:
    ``(rank, count)`` (count 0: the pass), or count -1 when there is no such move."""
    h = H[pos]
    tc = S[S_TOP_COUNT]
    if is_run(tc):
        return NO_PLAY  # answering a sequence: no tip reads it
    rev = S[S_REV]
    m = legal_plays(h, S, R)
    if what == PASS:
        return (np.int64(0), np.int64(0)) if tc != 0 and m != U0 else NO_PLAY
    if what == WEAKEST:
        return weakest_in(m, rev)
    if what == STRONGEST:
        if m == U0:
            return NO_PLAY
        r = strongest_of(fold(m), rev)
        return np.int64(r), np.int64(whole_group(m, r))
    if what == SURE:
        u = unbeatable_plays(outside(h, played, R[R_JOKERS]), rev)
        return weakest_in(m & u, rev)
    if what == WHOLE:
        return weakest_in(whole(m, h), rev)
    if what == LARGEST:
        return largest_in(m, rev) if tc == 0 else NO_PLAY
    if what in (ENDER, REVOLT):
        return weakest_in(filtered(m, S, R, what), rev)
    if what == SECOND:
        return second_in(m, rev)
    if what == LONE:
        return lone_in(m, h, rev)
    if what == JACKS_PLAY:
        if R[R_TRICK_FLAGS] & JACKS == 0:
            return NO_PLAY
        c = whole_group(m, JACK)
        return (np.int64(JACK), np.int64(c)) if c > 0 else NO_PLAY
    return NO_PLAY


@njit(**INLINE)
def holds(view, params, at, slot):
    """Whether the condition at ``slot`` of row ``at`` holds: place, lowest, highest."""
    place = np.int64(params[at, slot])
    if place == 0:
        return True
    v = view[place]
    return params[at, slot + 1] <= v <= params[at, slot + 2]


@njit(**INLINE)
def advised_move(pos, S, H, R, played, roles, params):
    """``advised``: the first tip of its row whose conditions hold and whose play exists
    (:func:`play_of`), else ``rules-aware``'s move. A tip is ``(play, place, lowest,
    highest, place, lowest, highest)`` from :data:`~strategies.specs.TIP_SLOT` on."""
    at = np.uint64(pos)
    if params[at, TIP_SLOT] != 0:  # without tips it is rules-aware, at its cost
        view = table_view(pos, S, H, R, played, roles)
        for i in range(ADVISED_TIPS):
            slot = TIP_SLOT + TIP_WIDTH * i
            what = np.int64(params[at, slot])
            if what == 0:
                break
            if holds(view, params, at, slot + 1) and holds(view, params, at, slot + 4):
                r, c = play_of(what, pos, S, H, R, played)
                if c >= 0:
                    return r, c
    return rules_aware_move(pos, S, H, R, played, params)


@njit(**HOT)
def view_and_plays(pos, S, H, R, played, roles, view, plays):
    """For the miner, in one call: :func:`table_view` into ``view`` (:data:`VIEW_SIZE`
    places), and every play of :data:`PLAYS` into the rows of ``plays`` as ``(rank,
    count)`` (row 0 unused; count -1: none). The kernel's functions allocate nothing."""
    seen = table_view(pos, S, H, R, played, roles)
    for i in range(VIEW_SIZE):
        view[i] = seen[i]
    for what in range(1, len(PLAYS) + 1):
        r, c = play_of(what, pos, S, H, R, played)
        plays[what, 0], plays[what, 1] = r, c
