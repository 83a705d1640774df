"""``champion``'s playouts: the round played on from a candidate move on one guessed deal.

One loop for both kinds of guess: rank hands under rules without suits
(:func:`strategies.endgame.advance`), whole ``H`` arrays under rules that read them, where
each player decides with what his suits allow and his moves step his cards
(:mod:`strategies.suited_search`), so that he lays and answers sequences and honours the
lock.
"""

from __future__ import annotations

from numba import njit

from simulator.kernel.config import HOT, INLINE
from simulator.kernel.knowledge import holds_cards
from simulator.kernel.layout import MAX_PLAYERS, S_REV, S_TOP_COUNT, S_TOP_RANK
from simulator.kernel.legal import legal_plays
from simulator.kernel.step import (
    ST_BEST_FREE,
    ST_OVER,
    ST_REV,
    ST_TOP_COUNT,
    ST_TOP_RANK,
    ST_TURN,
    load_state,
    rule_flags,
    store_state,
    trick_rule_flags,
)
from simulator.rules.cards import NUM_RANKS
from strategies.endgame import UNKNOWN, last_two, out_in_two, solve
from strategies.heuristics import keep_sets_choice
from strategies.linear import linear_move
from strategies.specs import KEEP_SETS_BREAK_AT, KEEP_SETS_PARAMS
from strategies.suited_search import show_suits, solve_suited, step_move

TAIL_BREAK_AT = int(KEEP_SETS_PARAMS[KEEP_SETS_BREAK_AT].default)  # keep-sets' own default


@njit(**INLINE)
def policy_move(p, S, H, R, played, rs, lparams):
    """A rollout's move for ``p``: out within two plays when it can, else ``linear``'s."""
    r, c = out_in_two(p, S, H, R, played)
    if r >= 0:
        return r, c
    return linear_move(p, S, H, R, played, rs, lparams)


@njit(**INLINE)
def tail_move(p, S, H, R, played):
    """A rollout's move for ``p``, not the searcher, after ``plies`` moves: out within two
    plays when it can, else ``keep-sets``'s (whole groups, the weakest first), nearly as
    cheap as ``lowest``: opponents who break no group, as ``linear`` seldom does."""
    r, c = out_in_two(p, S, H, R, played)
    if r >= 0:
        return r, c
    h = H[p]
    return keep_sets_choice(h, legal_plays(h, S, R), S[S_TOP_COUNT], S[S_REV], TAIL_BREAK_AT)


@njit(**HOT)
def playout(pos, r, c, guess, S0, R, played, rs, lparams, limit, plies, S2, H2, played2, places2,
            count, keep):  # fmt: skip
    """The place of ``pos`` after playing ``c`` cards of ``r`` on the deal ``guess``:
    the last two players' race solved exactly (:func:`strategies.endgame.solve`, at most
    ``limit`` positions), else the round played out with :func:`policy_move`, ``linear``,
    for everybody's first ``plies`` moves and the searcher's after them, and with
    :func:`tail_move` (far cheaper) for the others' after them.

    With suits (``guess`` a whole ``H`` array, cards included) each player decides on the
    state written for him with what his suits allow
    (:func:`~simulator.kernel.suits.write_allowed`), his moves step his cards, the top's
    suits and the lock (:func:`strategies.suited_search.step_move`), and the race of the last two is solved with
    suits (:func:`strategies.suited_search.solve_suited`). One loop for both, so that
    its players' code is compiled once.

    It allocates nothing (``count`` and ``keep`` are the solver's, from the caller), so
    it runs without numba's reference counting: with it, every call in a playout paid
    atomic updates on each array argument, which two threads fought over (over half of
    a search's time, in the profile).
    """
    suited = holds_cards(guess)
    for j in range(S0.size):
        S2[j] = S0[j]
    for j in range(guess.size):
        H2[j] = guess[j]
    for q in range(MAX_PLAYERS):
        places2[q] = 0
    for k in range(NUM_RANKS):
        played2[k] = played[k]
    fl = rule_flags(R)
    trick_rules = trick_rule_flags(R)
    st = load_state(S2)
    p, mr, mc, ply = pos, r, c, -1  # the candidate first, which is no ply
    while True:
        st = step_move(suited, st, fl, trick_rules, p, mr, mc, H2, R, played2, places2, S2)
        if places2[pos] != 0:
            return places2[pos]
        if ply < 0:
            ply = 0
            other = last_two(st, pos)
            if other >= 0 and limit > 0 and not st[ST_OVER]:
                count[0], count[1], count[2] = 0, limit, 0
                if suited:
                    v = solve_suited(pos, other, st, H2, R, played2, places2, S2, count, keep)
                else:
                    v = solve(pos, other, st, H2, R, played2, places2, S2, count, keep)
                if v != UNKNOWN:  # the two places left are best_free and the next
                    return st[ST_BEST_FREE] + 1 - v
        p = st[ST_TURN]
        if suited:  # every player reads the whole state, and what his suits allow
            show_suits(S2, st, H2, p, trick_rules)
        if ply < plies or p == pos:
            if not suited:
                store_state(S2, st)
            mr, mc = policy_move(p, S2, H2, R, played2, rs, lparams)
        else:  # the tail reads only the top, the order in force and the trick rules' slots
            S2[S_TOP_RANK], S2[S_TOP_COUNT], S2[S_REV] = (
                st[ST_TOP_RANK],
                st[ST_TOP_COUNT],
                st[ST_REV],
            )
            mr, mc = tail_move(p, S2, H2, R, played2)
        ply += 1
