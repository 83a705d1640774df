"""The search players' pieces under rules that read suits (``sequences``, ``suit_lock``,
``spade_three_return``): guessed cards, the suited step, sequences among the candidates
and the two-player solver with suits.

Why apart. Without suits a search guesses rank hands (:func:`strategies.montecarlo.sample_hands`)
and plays them out by ranks (:func:`strategies.endgame.advance`); under these rules that
play is wrong where it matters most to Daifugō: a locked trick is open to every rank, no
sequence is ever laid, and the 3 of spades may be anybody's 3. Here every guess is a whole
``H`` array, card masks included (:mod:`simulator.kernel.knowledge`), and every move of a
playout goes as the suited round loop (:func:`simulator.matchloop.round.play_suited_round`)
makes it: what the player's suits allow is written before he decides, the cards leave his
mask, the top's suits and the lock follow. The strategies asked in a playout then lay and
answer sequences as in a round.

The cards the searcher cannot see are public taken together: the deck less his own and
the cards that left the round, which everybody saw go (:func:`unseen_cards`). A guess
deals them at random among the opponents, as many of each rank as the rank guess gives
each (what the exchange told by rank is kept there; the suits of the cards exchanged
are not followed).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.kernel.bits import RANKS, U0, U1, below, clz, count_of, ctz, popc
from simulator.kernel.config import ALLOC, HOT, INLINE
from simulator.kernel.knowledge import ALLOWED, CARDS, H_SIZE, holds_cards
from simulator.kernel.layout import (
    R_TRICK_FLAGS,
    RUNS,
    S_LOCK,
    S_PRESIDENT,
    S_REV,
    S_TOP_COUNT,
    S_TOP_RANK,
    S_TOP_SUITS,
    SEVENS,
    SUITED,
    TENS,
)
from simulator.kernel.legal import legal_flags, legal_plays, play_count, play_rank, plays_of
from simulator.kernel.runs import JOKERS, SETS, is_run, run_cards, run_suits, runs_scan
from simulator.kernel.step import (
    ST_ACTIVE,
    ST_OVER,
    ST_REV,
    ST_TOP_COUNT,
    ST_TOP_RANK,
    ST_TURN,
    hand_over,
    rule_flags,
    run_step,
    step_trick_rules,
    store_state,
    trick_rule_flags,
)
from simulator.kernel.suits import (
    M4,
    after_play,
    chosen_cards,
    locking_cards,
    move_cards,
    play_cards,
    suits_allow,
    write_allowed,
)
from simulator.kernel.trick import assumed_gift, gift_receiver
from simulator.rules.cards import JOKER, NUM_RANKS
from strategies.endgame import UNKNOWN, advance, keep_position, restore_position
from strategies.hand import whole


@njit(**INLINE)
def searches_suits(R, H):
    """Whether a search plays with suits here: under rules that read them, with the card
    masks in ``H`` (a user's adapter and the round's own array hold them)."""
    return R[R_TRICK_FLAGS] & SUITED != 0 and holds_cards(H)


@njit(**INLINE)
def unseen_cards(pos, H, n):
    """The cards (a card mask) ``pos`` cannot see: those of the other hands. They are the
    deck less his own and the cards that left the round, which every player saw go (the
    reference engine's adapter writes them as the others' placeholders,
    :attr:`~simulator.reference.observation.Observation.unseen`)."""
    k = U0
    for q in range(n):
        if q != pos:
            k |= H[CARDS + q]
    return k


@njit(**HOT)
def deal_suits(pos, H, ranks, n, rs, out):
    """Fill ``out`` (a whole ``H`` array) with the guess ``ranks`` (rank hands by position)
    and cards behind them: ``pos``'s own, and for the others the unseen cards of each rank
    dealt at random, as many as the guess gives each (the jokers, which nothing tells
    apart, in order). Nothing is known of anybody's hand in the guess (the strategies
    asked in a playout read no knowledge)."""
    for i in range(H_SIZE):
        out[i] = U0
    for i in range(ALLOWED, CARDS):
        out[i] = RANKS
    for q in range(n):
        out[q] = ranks[q]
    out[CARDS + pos] = H[CARDS + pos]
    unseen = unseen_cards(pos, H, n)
    if unseen == U0:  # nothing tells which cards left the round (a UECda client's view)
        unseen = ~H[CARDS + pos] & (SETS | JOKERS)
    for r in range(NUM_RANKS):
        suits = (unseen >> np.uint64(4 * r)) & M4
        for q in range(n):
            if q == pos:
                continue
            for _ in range(count_of(ranks[q], r)):
                if suits == U0:  # a guess past the cards out there: never with true counts
                    break
                j = 0 if r == JOKER else below(rs, popc(suits))
                s = suits
                for _ in range(j):
                    s &= s - U1
                bit = s & (~s + U1)
                suits ^= bit
                out[CARDS + q] |= bit << np.uint64(4 * r)


@njit(**INLINE)
def allowed_state(S, k, t, tc, trick_rules, into):
    """Make ``into`` a copy of ``S`` with what card mask ``k`` allows on the top written
    (:func:`simulator.kernel.suits.write_allowed`'s slots), for a player other than the
    one to move (a passer, in the likelihood of a guess)."""
    for j in range(S.size):
        into[j] = S[j]
    write_allowed(into, k, t, tc, trick_rules)


@njit(**INLINE)
def show_suits(S, st, H, p, trick_rules):
    """Write the state ``st`` into ``S`` for player ``p`` to decide on, with what his
    suits allow (:func:`~simulator.kernel.suits.write_allowed`), as the suited round loop
    does before each decision."""
    store_state(S, st)
    write_allowed(S, H[CARDS + np.uint64(p)], st[ST_TOP_RANK], st[ST_TOP_COUNT], trick_rules)


@njit(**INLINE)
def suited_advance(st, fl, trick_rules, p, r, c, cards, H, R, played, places, S):
    """The state after ``p``'s move ``(r, c)`` as the suited round loop makes it, from the
    whole ``H`` array of a guess: a set lays ``cards`` (from the caller: the strategy's
    choice, :func:`~simulator.kernel.suits.chosen_cards`), a sequence its own cards; the
    top's suits and the lock follow, the cards a play of 7s or 10s hands over leave as
    :func:`strategies.endgame.advance` assumes them (the lowest suits), and a President
    who falls loses his cards too."""
    at = np.uint64(p)
    k = H[CARDS + at]
    if is_run(c):
        run = run_cards(k, r, c)
        H[CARDS + at] = k & ~run
        S[S_TOP_SUITS], S[S_LOCK] = run_suits(S[S_TOP_SUITS], S[S_LOCK], c, trick_rules)
        st = run_step(st, fl, trick_rules, p, r, c, run, H, R, played, places, S)
    else:
        if c > 0:
            H[CARDS + at] = k & ~cards
            S[S_TOP_SUITS], S[S_LOCK] = after_play(S[S_TOP_SUITS], S[S_LOCK], cards, r, trick_rules)
            if trick_rules & (SEVENS | TENS) != 0:
                gift = assumed_gift(H[at], r, c, trick_rules)
                if gift != U0:
                    to = gift_receiver(fl[0], p, r, st[ST_ACTIVE])
                    hand_over(gift, p, r, fl[0], st[ST_ACTIVE], H, played)
                    move_cards(H, p, to, gift, -1, 0)
        st = step_trick_rules(st, fl, trick_rules, p, r, c, H, played, places, S)
    if st[ST_TOP_COUNT] == 0:  # a new trick: no top, no lock
        S[S_TOP_SUITS], S[S_LOCK] = 0, 0
    president = S[S_PRESIDENT]
    if president >= 0 and H[np.uint64(president)] == U0:  # out, or fallen (capital_falls)
        H[CARDS + np.uint64(president)] = U0
    return st


@njit(**INLINE)
def step_move(suited, st, fl, trick_rules, p, r, c, H, R, played, places, S):
    """The state after ``p``'s move: with suits, as the suited round loop makes it
    (:func:`chosen_step`), else by ranks (:func:`strategies.endgame.advance`)."""
    if suited:
        return chosen_step(st, fl, np.int64(trick_rules), np.int64(p), np.int64(r), np.int64(c),
                           H, R, played, places, S)  # fmt: skip
    return advance(st, fl, trick_rules, p, r, c, H, played, places, S)


@njit(**HOT)
def chosen_step(st, fl, trick_rules, p, r, c, H, R, played, places, S):
    """:func:`suited_advance` of ``p``'s move with the cards his strategy chose when they
    fit, else the rules' (a pass or a sequence takes its own). Compiled apart, not inlined: the playouts and rollouts serve
    the rules with and without suits in one loop, and a copy of this in that loop cost the
    rules without suits 5 % of their speed (docs/performance.md); its arguments are plain
    integers, so that it is compiled once."""
    cards = U0
    if c > 0 and not is_run(c):
        k = H[CARDS + np.uint64(p)]
        cards = chosen_cards(S, k, r, c, st[ST_TOP_RANK], st[ST_TOP_COUNT], trick_rules)
    return suited_advance(st, fl, trick_rules, p, r, c, cards, H, R, played, places, S)


@njit(**INLINE)
def answering_runs(pos, S, H, R):
    """How many sequences ``pos`` may lay on the sequence on top (0 on a set, on a lead,
    or without cards to read)."""
    tc = S[S_TOP_COUNT]
    if not is_run(tc) or not searches_suits(R, H):
        return 0
    k = H[CARDS + np.uint64(pos)]
    return runs_scan(k, S[S_TOP_RANK], tc, S[S_REV], S[S_LOCK], R[R_TRICK_FLAGS], -1)[0]


@njit(**ALLOC)
def suited_candidates(pos, S, H, R, prior_r, prior_c):
    """The candidate moves with suits as ``(ranks, counts, prior index)``: leading, every
    group whole and every sequence of cards held (no joker); on a set, every play the
    suits allow and the pass; on a sequence, every sequence that may answer it and the
    pass; and the prior's move."""
    at = np.uint64(pos)
    h, k = H[at], H[CARDS + at]
    t, tc = S[S_TOP_RANK], S[S_TOP_COUNT]
    leading = tc == 0
    rev, lock, trick_rules = S[S_REV], S[S_LOCK], R[R_TRICK_FLAGS]
    plays = U0 if is_run(tc) else (whole(h, h) if leading else legal_plays(h, S, R))
    kr = k & ~JOKERS if leading else k  # leading, a sequence spending a joker is the prior's
    nruns = 0
    if trick_rules & RUNS != 0 and (leading or is_run(tc)):
        nruns = runs_scan(kr, t, tc, rev, lock, trick_rules, -1)[0]
    nplays = popc(plays)
    nmoves = nplays + nruns + (0 if leading else 1)
    cr = np.zeros(nmoves + 1, np.int64)
    cc = np.zeros(nmoves + 1, np.int64)  # the pass, when present, is (0, 0) after the rest
    for i in range(nplays):
        b = ctz(plays)
        plays &= plays - U1
        cr[i], cc[i] = play_rank(b), play_count(b)
    for j in range(nruns):
        _, cr[nplays + j], cc[nplays + j] = runs_scan(kr, t, tc, rev, lock, trick_rules, j)
    for i in range(nmoves):
        if cr[i] == prior_r and cc[i] == prior_c:
            return cr[:nmoves], cc[:nmoves], i
    cr[nmoves], cc[nmoves] = prior_r, prior_c
    return cr, cc, nmoves


# ---------------------------------------------------------------- the solver with suits


@njit(**INLINE)
def set_plays(h, k, st, S, R, trick_rules):
    """The sets player ``st``'s turn may lay from rank hand ``h``, card mask ``k``: those
    his ranks allow, filtered by what his suits allow (none on a sequence)."""
    t, tc = st[ST_TOP_RANK], st[ST_TOP_COUNT]
    if is_run(tc):
        return U0
    m = plays_of(h, t, tc, st[ST_REV], legal_flags(R))
    if tc != 0:
        ok, add = suits_allow(k, t, tc, S[S_LOCK], trick_rules)
        m = (m | np.uint64(add)) & np.uint64(ok)
    return m


@njit(**HOT)
def solve_suited(me, other, st, H, R, played, places, S, count, keep):
    """:func:`strategies.endgame.solve` with suits, on a guess's whole ``H`` array: the
    same verdicts (1, 0, :data:`~strategies.endgame.UNKNOWN`) and budget (``count``).

    The moves tried: every sequence that may be laid (first: it sheds most), then every
    set the suits allow, most cards and strongest rank first, each with the rules' cards
    (:func:`~simulator.kernel.suits.play_cards`) and, where other cards of it would lock
    the trick, with those too; then the pass. Which cards a set lays matters otherwise
    only to sequences and the 3 of spades later, which this does not weigh: exact for
    the moves it tries."""
    count[0] += 1
    depth = count[2]
    if count[0] > count[1] or depth >= keep.shape[0]:
        return UNKNOWN
    fl = rule_flags(R)
    trick_rules = trick_rule_flags(R)
    p = st[ST_TURN]
    at = np.uint64(p)
    h, k = H[at], H[CARDS + at]
    t, tc, lock = st[ST_TOP_RANK], st[ST_TOP_COUNT], S[S_LOCK]
    nruns = 0
    if trick_rules & RUNS != 0 and (tc == 0 or is_run(tc)):
        nruns = runs_scan(k, t, tc, st[ST_REV], lock, trick_rules, -1)[0]
    m = set_plays(h, k, st, S, R, trick_rules)
    want = 1 if p == me else 0
    unknown = False
    keep_position(keep, depth, me, other, H, played, S, True, True)
    j, passed = 0, tc == 0  # a lead has no pass to try
    second = U0  # the locking cards of the set just tried, when they differ
    r, c = 0, 0
    while True:
        cards = U0
        if j < nruns:  # the sequences, the last (longest, strongest) first
            j += 1
            _, r, c = runs_scan(k, t, tc, st[ST_REV], lock, trick_rules, nruns - j)
        elif second != U0:
            cards, second = second, U0
        elif m != U0:
            b = 63 - clz(m)
            m &= ~(U1 << np.uint64(b))
            r, c = play_rank(b), play_count(b)
            cards = play_cards(k, r, c, t, tc, lock, trick_rules)
            lock_with = locking_cards(S, k, r, c)
            if lock_with != U0 and lock_with != cards:
                second = lock_with
        elif not passed:
            r, c, passed = 0, 0, True
        else:
            break
        st2 = suited_advance(st, fl, trick_rules, p, r, c, cards, H, R, played, places, S)
        if st2[ST_OVER]:
            v = 1 if places[me] < places[other] else 0
        else:
            count[2] = depth + 1
            v = solve_suited(me, other, st2, H, R, played, places, S, count, keep)
            count[2] = depth
        restore_position(keep, depth, me, other, H, played, places, S, True, True, r, 0)
        if v == want:
            return want
        unknown |= v == UNKNOWN
    return UNKNOWN if unknown else 1 - want
