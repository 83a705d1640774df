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
halves the search). A forced move is made without searching.

The search trusts a *prior* policy: its move is kept unless another candidate's mean
place is better by a margin, so sampling noise never makes it play worse than the prior
for lack of samples.

Parameters (``params[pos]``): 0 samples per move; 1 the rollout policy's kernel id
and 2 the prior's (any strategy but this one); 3 the margin (in places); 4..10 the
rollout policy's own parameters, 11..17 the prior's.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.kernel.bits import U0, U1, add_card, below, count_of, ctz, popc
from simulator.kernel.config import HOT, JIT
from simulator.kernel.knowledge import ALLOWED, KNOWN
from simulator.kernel.layout import (
    MAX_PLAYERS,
    R_JOKERS,
    S_ACTIVE,
    S_BEST_FREE,
    S_N,
    S_REV,
    S_TOP_COUNT,
    S_TOP_RANK,
    S_WORST_FREE,
)
from simulator.kernel.legal import legal_plays
from simulator.kernel.step import (
    ST_OVER,
    ST_REV,
    ST_TOP_COUNT,
    ST_TOP_RANK,
    ST_TURN,
    load_state,
    rule_flags,
    step,
    step_table,
    store_state,
    table_flags,
)
from simulator.rules.cards import JOKER
from strategies.hand import whole
from strategies.kernels import lowest_move
from strategies.policies import decide_basic
from strategies.specs import LOWEST, POLICY_PARAMS

ROLLOUT_SLOT = 4
PRIOR_SLOT = ROLLOUT_SLOT + POLICY_PARAMS
# The search allocates its scratch once per decision, so it needs reference counting;
# said explicitly because a callee otherwise inherits its caller's ``_nrt=False``.
ALLOC = {**JIT, "_nrt": True}


@njit(**HOT)
def sample_hands(pos, S, H, R, played, rs, out, cnt, need):
    """Deal the unseen cards to the other players, consistently with what ``pos`` knows.

    Cards known to be held are placed first; the rest are dealt one at a time, the
    strongest first, each to a player drawn with probability proportional to the room
    left in his hand among the players who may hold its rank (uniform over deals when
    nothing is known). ``out[q]`` receives the hands; ``cnt``/``need`` are scratch.
    """
    n = S[S_N]
    h = H[pos]
    jokers = R[R_JOKERS]
    for r in range(14):
        cnt[r] = (jokers if r == JOKER else 4) - played[r] - count_of(h, r)
    for q in range(n):
        out[q] = U0
        need[q] = 0 if q == pos else popc(H[q])
    out[pos] = h
    for q in range(n):
        known = H[KNOWN + MAX_PLAYERS * pos + q]
        if q == pos or known == U0:
            continue
        for r in range(14):
            k = min(count_of(known, r) - played[r], cnt[r], need[q])
            for _ in range(k):
                out[q] = add_card(out[q], r)
                cnt[r] -= 1
                need[q] -= 1
    for r in range(13, -1, -1):
        bit = U1 << np.uint64(r)
        for _ in range(cnt[r]):
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


@njit(**HOT)
def rollout(pos, r, c, policy, S2, H2, R, played2, places2, roles, rs, rparams):
    """Play ``c`` cards of ``r`` (count 0: pass) for ``pos``, then the round out with the
    rollout policy for everybody; returns the place ``pos`` takes.

    As in the match loop, the step is inlined with the table rules the constant 0 when
    they are all off, and ``lowest`` (the default policy) is inlined and shown only the
    top and the order in force, which is all it reads: a rollout is most of the search.
    """
    fl = rule_flags(R)
    table = table_flags(R)
    st = load_state(S2)
    p = pos
    while True:
        if table == 0:
            st = step(st, fl, 0, p, r, c, H2, played2, places2, S2)
        else:
            st = step_table(st, fl, table, p, r, c, H2, played2, places2, S2)
        if st[ST_OVER] != 0:
            return places2[pos]
        p = st[ST_TURN]
        if policy == LOWEST:
            S2[S_TOP_RANK] = st[ST_TOP_RANK]
            S2[S_TOP_COUNT] = st[ST_TOP_COUNT]
            S2[S_REV] = st[ST_REV]
            r, c = lowest_move(p, S2, H2, R)
        else:
            store_state(S2, st)
            r, c = decide_basic(policy, p, S2, H2, R, played2, roles, rs, rparams)


@njit(**ALLOC)
def montecarlo_move(pos, S, H, R, played, roles, rs, params):
    """``montecarlo``'s move: the candidate with the best mean place over sampled deals."""
    h = H[pos]
    leading = S[S_TOP_COUNT] == 0
    cand = whole(h, h) if leading else legal_plays(h, S, R)
    nplays = popc(cand)
    nmoves = nplays + (0 if leading else 1)
    if nmoves == 1:
        if nplays == 0:
            return 0, 0
        b = ctz(cand)
        return b & 15, (b >> 4) + 1
    cr = np.zeros(nmoves + 1, np.int64)
    cc = np.zeros(nmoves + 1, np.int64)  # the pass, when present, is (0, 0) after the plays
    x = cand
    for i in range(nplays):
        b = ctz(x)
        x &= x - U1
        cr[i] = b & 15
        cc[i] = (b >> 4) + 1
    samples = max(1, np.int64(params[pos, 0]))
    policy = np.int64(params[pos, 1])
    rparams = np.zeros((MAX_PLAYERS, params.shape[1]), np.float64)
    pparams = np.zeros((MAX_PLAYERS, params.shape[1]), np.float64)
    for p in range(MAX_PLAYERS):
        for j in range(POLICY_PARAMS):
            rparams[p, j] = params[pos, ROLLOUT_SLOT + j]
            pparams[p, j] = params[pos, PRIOR_SLOT + j]
    pr, pc = decide_basic(np.int64(params[pos, 2]), pos, S, H, R, played, roles, rs, pparams)
    prior = -1
    for i in range(nmoves):
        if cr[i] == pr and cc[i] == pc:
            prior = i
    if prior < 0:  # the prior breaks a group to lead: search its move too
        cr[nmoves] = pr
        cc[nmoves] = pc
        prior = nmoves
        nmoves += 1
    n = S[S_N]
    dealt = np.zeros(MAX_PLAYERS, np.uint64)
    H2 = np.zeros(MAX_PLAYERS, np.uint64)
    S2 = np.zeros(S.size, np.int64)
    played2 = np.zeros(14, np.int64)
    places2 = np.zeros(MAX_PLAYERS, np.int64)
    cnt = np.zeros(14, np.int64)
    need = np.zeros(MAX_PLAYERS, np.int64)
    total = np.zeros(nmoves, np.int64)
    # Places still free, relabelled as if everybody out so far had taken a best place:
    # a shift that keeps every comparison (an Observation does not tell who went out on 2s).
    S0 = S.copy()
    S0[S_BEST_FREE] = 1 + n - popc(np.uint64(S[S_ACTIVE]))
    S0[S_WORST_FREE] = n
    for _ in range(samples):
        sample_hands(pos, S, H, R, played, rs, dealt, cnt, need)
        for i in range(nmoves):
            S2[:] = S0
            for q in range(n):
                H2[q] = dealt[q]
            played2[:] = played
            places2[:] = 0
            total[i] += rollout(
                pos, cr[i], cc[i], policy, S2, H2, R, played2, places2, roles, rs, rparams
            )
    best = prior
    for i in range(nmoves):
        if total[i] < total[best]:
            best = i
    if total[prior] - total[best] <= params[pos, 3] * samples:
        best = prior
    return cr[best], cc[best]
