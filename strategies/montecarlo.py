"""``montecarlo``: a search player that plays every candidate move out many times.

For each sample it deals the cards it cannot see to the other players at random, but
consistently with all it has seen: the cards played this round, how many cards each
player holds, and what the exchange told it (:mod:`simulator.kernel.knowledge`: the
cards it gave back or gave, the strongest card its Scum may still hold). On each
sampled deal it plays every candidate move, then the round to its end with a fast
default policy for everybody (itself included), and notes its place. It makes the
move with the best mean place; the same deals serve every candidate (common random
numbers), so the comparison is sharper than the sample size alone would give.

Candidates: when following, every legal play and the pass; when leading, every group
played whole (a lead that breaks a group is almost never best, and leaving those out
halves the search). A forced move is made without searching. Under rules that read
suits the deals hold their cards, the rollouts play them as a round does and the
candidates add the sequences (:mod:`strategies.suited_search`).

The search trusts a *prior* policy: its move is kept unless another candidate's mean
place is better by a margin, so sampling noise never makes it play worse than the prior
for lack of samples. A candidate whose chance of overruling the prior has become remote
is dropped from the search (checked every few samples), and a rollout stops as soon as
the searching player has taken his place: most of the rollouts of a plain search are
spent on moves already lost and on the end of the round after he went out.

Parameters (``params[pos]``, slots declared in :mod:`strategies.specs`): the most
samples per move, the rollout policy's kernel id and the prior's (any strategy but this
one), the margin (in places); then the rollout policy's own parameters from
``ROLLOUT_SLOT`` and the prior's from ``PRIOR_SLOT``, ``POLICY_PARAMS`` slots each.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.kernel.bits import RANKS, U0, U1, add_card, below, count_of, ctz, popc
from simulator.kernel.config import ALLOC, HOT, INLINE
from simulator.kernel.knowledge import ALLOWED, H_SIZE, KNOWN, holds_cards
from simulator.kernel.layout import (
    DECK,
    MAX_PLAYERS,
    R_JOKERS,
    S_ACTIVE,
    S_BEST_FREE,
    S_N,
    S_REV,
    S_SUIT_AT,
    S_TOP_COUNT,
    S_TOP_RANK,
    S_WORST_FREE,
)
from simulator.kernel.legal import legal_plays, play_count, play_rank
from simulator.kernel.step import (
    ST_REV,
    ST_TOP_COUNT,
    ST_TOP_RANK,
    ST_TURN,
    load_state,
    rule_flags,
    store_state,
    trick_rule_flags,
)
from simulator.rules.cards import JOKER, NUM_RANKS
from strategies.hand import whole
from strategies.kernels import lowest_move
from strategies.policies import decide_basic
from strategies.sequences import lays_runs
from strategies.specs import (
    LOWEST,
    MONTECARLO_MARGIN,
    MONTECARLO_PRIOR,
    MONTECARLO_ROLLOUT,
    MONTECARLO_SAMPLES,
    POLICY_PARAMS,
    PRIOR_SLOT,
    ROLLOUT_SLOT,
)
from strategies.suited_search import (
    deal_suits,
    searches_suits,
    show_suits,
    step_move,
    suited_candidates,
)

CHECK_FROM = 4  # samples before the first check for hopeless candidates
CHECK_EVERY = 2  # samples between checks
Z_DROP = 2.33  # a candidate is dropped when overruling the prior is this many sd away
VAR_FLOOR = 0.1  # least variance of a place difference per sample assumed in the check


@njit(**HOT)
def sample_hands(pos, S, H, R, played, rs, out, cnt, need, pool):
    """Deal the unseen cards to the other players, consistently with what ``pos`` knows.

    Cards known to be held are placed first. The cards of ranks that some player may not
    hold (the exchange told ``pos`` so) are dealt next, one at a time, the strongest
    first, each to a player drawn with probability proportional to the room left in his
    hand among the players who may hold its rank. The rest are shuffled into the room
    left, which is uniform over those deals (and over all deals when nothing is known).
    ``out[q]`` receives the hands; ``cnt``/``need``/``pool`` are scratch.
    """
    n = S[S_N]
    h = H[pos]
    jokers = R[R_JOKERS]
    for r in range(NUM_RANKS):
        cnt[r] = (jokers if r == JOKER else 4) - played[r] - count_of(h, r)
    for q in range(n):
        out[q] = U0
        need[q] = 0 if q == pos else popc(H[q])
    out[pos] = h
    for q in range(n):
        known = H[KNOWN + MAX_PLAYERS * pos + q]
        if q == pos or known == U0:
            continue
        for r in range(NUM_RANKS):
            k = min(count_of(known, r) - played[r], cnt[r], need[q])
            for _ in range(k):
                out[q] = add_card(out[q], r)
                cnt[r] -= 1
                need[q] -= 1
    free = RANKS  # ranks that every player with room left may hold
    for q in range(n):
        if need[q] > 0:
            free &= H[ALLOWED + MAX_PLAYERS * pos + q]
    for r in range(13, -1, -1):
        if not (free >> np.uint64(r)) & U1:
            deal_rank(pos, r, cnt[r], n, H, rs, out, need)
    shuffle_deal(free, n, rs, out, cnt, need, pool)


@njit(**INLINE)
def sample_deal(pos, S, H, R, played, rs, out, ranks, cnt, need, pool, suited):
    """:func:`sample_hands` into ``out``; with ``suited``, into ``ranks`` and then into
    ``out`` as a whole ``H`` array with the cards (:func:`strategies.suited_search.deal_suits`)."""
    if suited:
        sample_hands(pos, S, H, R, played, rs, ranks, cnt, need, pool)
        deal_suits(pos, H, ranks, S[S_N], rs, out)
    else:
        sample_hands(pos, S, H, R, played, rs, out, cnt, need, pool)


@njit(**INLINE)
def deal_rank(pos, r, cards, n, H, rs, out, need):
    """Deal ``cards`` cards of rank ``r`` one at a time, each to a player drawn with
    probability proportional to his room left among those who may hold ``r``."""
    bit = U1 << np.uint64(r)
    for _ in range(cards):
        room = 0
        for q in range(n):
            if need[q] > 0 and H[ALLOWED + MAX_PLAYERS * pos + q] & bit:
                room += need[q]
        strict = room > 0  # knowledge approximated too tightly: fall back to counts
        if not strict:
            for q in range(n):
                room += need[q]
        x = below(rs, room)
        for q in range(n):
            if need[q] > 0 and (not strict or H[ALLOWED + MAX_PLAYERS * pos + q] & bit):
                if x < need[q]:
                    out[q] = add_card(out[q], r)
                    need[q] -= 1
                    break
                x -= need[q]


@njit(**INLINE)
def shuffle_deal(free, n, rs, out, cnt, need, pool):
    """Deal the unseen cards of the ranks ``free`` uniformly into the room left: each
    player in turn draws his cards from the pool, one uniform draw a card."""
    k = 0
    for r in range(NUM_RANKS):
        if (free >> np.uint64(r)) & U1:
            for _ in range(cnt[r]):
                pool[k] = r
                k += 1
    for q in range(n):
        for _ in range(min(need[q], k)):
            i = below(rs, k)
            out[q] = add_card(out[q], pool[i])
            k -= 1
            pool[i] = pool[k]


@njit(**HOT)
def rollout(pos, r, c, policy, S2, H2, R, played2, places2, roles, rs, rparams):
    """Play ``c`` cards of ``r`` (count 0: pass) for ``pos``, then the round out with the
    rollout policy for everybody, until ``pos`` has taken its place, which it returns.

    As in the match loop, the step (:func:`strategies.endgame.advance`) is inlined with the
    trick rules the constant 0 when they are all off, and ``lowest`` (the default policy)
    is inlined and shown only the top and the order in force, which is all it reads: a
    rollout is most of the search. With suits (``H2`` a whole ``H`` array, cards
    included) each player decides with what his suits allow written for him, and the
    moves step his cards, the top's suits and the lock as the round does
    (:func:`strategies.suited_search.step_move`).
    """
    suited = holds_cards(H2)
    fl = rule_flags(R)
    trick_rules = trick_rule_flags(R)
    st = load_state(S2)
    p = pos
    while True:
        st = step_move(suited, st, fl, trick_rules, p, r, c, H2, R, played2, places2, S2)
        if places2[pos] != 0:  # its place is taken for good: the rest is not its business
            return places2[pos]
        p = st[ST_TURN]
        if suited:
            show_suits(S2, st, H2, p, trick_rules)
            r, c = decide_basic(policy, p, S2, H2, R, played2, roles, rs, rparams)
        elif policy == LOWEST:
            S2[S_TOP_RANK] = st[ST_TOP_RANK]
            S2[S_TOP_COUNT] = st[ST_TOP_COUNT]
            S2[S_REV] = st[ST_REV]
            r, c = lowest_move(p, S2, H2, R)
        else:
            store_state(S2, st)
            r, c = decide_basic(policy, p, S2, H2, R, played2, roles, rs, rparams)


@njit(**HOT)
def play_out(pos, cr, cc, live, nmoves, policy, S0, dealt, n, R, played, roles, rs, rparams,
             S2, H2, played2, places2, last):  # fmt: skip
    """Each live candidate (``live[i]``) played out once on the sampled deal ``dealt``
    (rank hands, or a whole ``H`` array with the cards); its place goes to ``last[i]``."""
    for i in range(nmoves):
        if not live[i]:
            continue
        for j in range(S0.size):
            S2[j] = S0[j]
        for j in range(dealt.size):
            H2[j] = dealt[j]
        for q in range(n):
            places2[q] = 0
        for r in range(NUM_RANKS):
            played2[r] = played[r]
        last[i] = rollout(
            pos, cr[i], cc[i], policy, S2, H2, R, played2, places2, roles, rs, rparams
        )


@njit(**HOT)
def race(last, total, diff2, live, nmoves, prior, n, left, need):
    """Add the places of one sample and drop the candidates that can no longer overrule
    the prior; returns how many remain besides it.

    ``diff2[i]`` sums the squared differences of place with the prior's on the same deal.
    Candidate ``i`` is dropped when, were the samples left to go on as they went so far
    (a normal law with the mean and variance seen, the variance at least ``VAR_FLOOR``),
    its total would beat the prior's by more than ``need`` with a chance under
    ``Z_DROP`` standard deviations. Checked every ``CHECK_EVERY`` samples from
    ``CHECK_FROM`` on; ``n`` samples are done, ``left`` remain.
    """
    for i in range(nmoves):
        if live[i]:
            total[i] += last[i]
            d = last[i] - last[prior]
            diff2[i] += d * d
    if left == 0 or n < CHECK_FROM or n % CHECK_EVERY != 0:
        return nmoves - 1
    remain = 0
    for i in range(nmoves):
        if not live[i] or i == prior:
            continue
        d = total[i] - total[prior]
        mean = d / n
        var = max((diff2[i] - d * mean) / (n - 1), VAR_FLOOR)
        if need + d + mean * left > Z_DROP * np.sqrt(var * left):
            live[i] = 0
        else:
            remain += 1
    return remain


@njit(**ALLOC)
def policy_params(pos, params, slot):
    """The parameters of a policy the search asks (its rollout's, its prior's), stored in
    the searcher's row from ``slot``, as a row for every player."""
    rows = np.zeros((MAX_PLAYERS, params.shape[1]), np.float64)
    for p in range(MAX_PLAYERS):
        for j in range(POLICY_PARAMS):
            rows[p, j] = params[pos, slot + j]
    return rows


@njit(**ALLOC)
def relabelled(S):
    """The state a search plays out from: the places still free relabelled as if everybody
    out so far took a best one (a shift that keeps every comparison; an Observation does
    not tell who went out on 2s), and the suits the player to move may lay forgotten.

    Those suits (:func:`~simulator.kernel.suits.suit_filter`) hold in this position only,
    which ``S``'s count of moves stamps; a playout of ``lowest`` moves the state on
    without writing that count back into ``S``, so every player of the playout would be
    offered the searcher's suited plays (the 3 of spades on a lone joker), hold none of
    their cards, and lay them forever."""
    S0 = S.copy()
    S0[S_BEST_FREE] = 1 + S[S_N] - popc(np.uint64(S[S_ACTIVE]))
    S0[S_WORST_FREE] = S[S_N]
    S0[S_SUIT_AT] = -1
    return S0


@njit(**ALLOC)
def montecarlo_move(pos, S, H, R, played, roles, rs, params):
    """``montecarlo``'s move: the candidate with the best mean place over sampled deals.

    Candidates that can no longer overrule the prior are dropped as the samples come in
    (:func:`race`), so the samples go to the moves still in question; once only the
    prior is left its move is made at once.
    """
    h = H[pos]
    leading = S[S_TOP_COUNT] == 0
    runs = lays_runs(R, H)
    cand = whole(h, h) if leading else legal_plays(h, S, R)
    nplays = popc(cand)
    nmoves = nplays + (0 if leading else 1)
    if nmoves == 1 and not runs:
        if nplays == 0:
            return 0, 0
        b = ctz(cand)
        return play_rank(b), play_count(b)
    pparams = policy_params(pos, params, PRIOR_SLOT)
    prior_id = np.int64(params[pos, MONTECARLO_PRIOR])
    pr, pc = decide_basic(prior_id, pos, S, H, R, played, roles, rs, pparams)
    suited = searches_suits(R, H)
    if suited:
        cr, cc, prior = suited_candidates(pos, S, H, R, pr, pc)
        if cr.size == 1:
            return pr, pc
        return search_deals(pos, S, H, R, played, roles, rs, params, cr, cc, prior, np.bool_(True))
    cr = np.zeros(nmoves + 1, np.int64)
    cc = np.zeros(nmoves + 1, np.int64)  # the pass, when present, is (0, 0) after the plays
    x = cand
    for i in range(nplays):
        b = ctz(x)
        x &= x - U1
        cr[i] = play_rank(b)
        cc[i] = play_count(b)
    prior = -1
    for i in range(nmoves):
        if cr[i] == pr and cc[i] == pc:
            prior = i
    if prior < 0:  # the prior breaks a group to lead: search its move too
        cr[nmoves] = pr
        cc[nmoves] = pc
        prior = nmoves
        nmoves += 1
    return search_deals(
        pos, S, H, R, played, roles, rs, params, cr[:nmoves], cc[:nmoves], prior, np.bool_(False)
    )


@njit(**ALLOC)
def search_deals(pos, S, H, R, played, roles, rs, params, cr, cc, prior, suited):
    """The move among the candidates ``cr``/``cc`` (``prior``: the prior's index) with
    the best mean place over the sampled deals, the prior's unless beaten by the margin;
    ``suited``: the deals hold their cards (:func:`strategies.suited_search.deal_suits`).
    Compiled apart, once (``suited`` a plain boolean, not a literal)."""
    nmoves = cr.size
    samples = max(1, np.int64(params[pos, MONTECARLO_SAMPLES]))
    policy = np.int64(params[pos, MONTECARLO_ROLLOUT])
    rparams = policy_params(pos, params, ROLLOUT_SLOT)
    n = S[S_N]
    width = H_SIZE if suited else MAX_PLAYERS
    dealt = np.zeros(width, np.uint64)
    ranks = np.zeros(MAX_PLAYERS, np.uint64)
    H2 = np.zeros(width, np.uint64)
    S2 = np.zeros(S.size, np.int64)
    played2 = np.zeros(NUM_RANKS, np.int64)
    places2 = np.zeros(MAX_PLAYERS, np.int64)
    cnt = np.zeros(NUM_RANKS, np.int64)
    need = np.zeros(MAX_PLAYERS, np.int64)
    pool = np.zeros(DECK, np.int64)
    total = np.zeros(nmoves, np.int64)
    last = np.zeros(nmoves, np.int64)
    diff2 = np.zeros(nmoves, np.int64)
    live = np.ones(nmoves, np.int64)
    S0 = relabelled(S)
    margin = params[pos, MONTECARLO_MARGIN] * samples  # the lead over the prior a candidate needs
    for k in range(samples):
        sample_deal(pos, S, H, R, played, rs, dealt, ranks, cnt, need, pool, suited)
        play_out(pos, cr, cc, live, nmoves, policy, S0, dealt, n, R, played, roles, rs,
                 rparams, S2, H2, played2, places2, last)  # fmt: skip
        if race(last, total, diff2, live, nmoves, prior, k + 1, samples - k - 1, margin) == 0:
            return cr[prior], cc[prior]
    best = prior
    for i in range(nmoves):
        if live[i] and total[i] < total[best]:
            best = i
    if total[prior] - total[best] <= margin:
        best = prior
    return cr[best], cc[best]
