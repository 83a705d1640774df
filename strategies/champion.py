"""``champion``: the search player rebuilt; ``clairvoyant``: the same search given every hand.

How the strongest Daifugō programs play (the UECda tournament's winners), on the kernel:

* **Guesses weighted by what the opponents did.** It draws ``guesses`` deals of the
  cards it cannot see, consistent with everything public (cards played, counts, what
  the exchange told it: :func:`strategies.montecarlo.sample_hands`), and weighs each by
  the likelihood of the opponents' observed decisions under the policy model ``linear``
  played as a softmax at ``temperature``. The observation holds no history beyond the
  current trick, so the decisions weighed are the passes on the top now on the table
  (:func:`log_likelihood`): a guess giving a passer a play he would surely have made is
  nearly ruled out. The guesses are then resampled by weight (systematic resampling),
  and every candidate's ``j``-th playout uses the same ``j``-th guess (common random
  numbers).
* **Playouts for the moves that might still be best.** A playout plays the round out
  with ``linear`` for everybody for ``plies`` moves, then with ``linear`` for the
  searcher and ``keep-sets`` (:func:`tail_move`, far cheaper) for the others, a trade of
  some strength for twice the speed (docs/performance.md). By default (``race``) the
  candidates race over the guesses as ``montecarlo``'s do: on each guess in turn every
  candidate still in the race is played out, and one that can no longer overrule the
  prior is dropped (:func:`strategies.montecarlo.race`), until only the prior is left,
  the guesses are spent or ``budget`` playouts are. With ``race`` 0, each candidate
  once, then UCB1 with constant ``explore`` over the whole ``budget``; with ``linear``
  at temperature 0 the rollouts are deterministic, so a candidate is never played out
  twice on one guess.
* **Exact endgames** (:mod:`strategies.endgame`): a move that goes out within two plays
  is made at once, and played by everybody in the rollouts; with two players left each
  guess is solved to its end (up to ``solve`` positions) instead of played out.

Its move is ``linear``'s (the prior) unless another candidate's mean place is better by
``margin``. Candidates are montecarlo's: every legal play and the pass when following,
every group played whole when leading, and the prior's move.

* **With suits** (``sequences``, ``suit_lock``, ``spade_three_return``;
  :mod:`strategies.suited_search`) a guess deals the unseen cards with their suits, a
  passer's likelihood counts the plays his guessed cards allow, the playouts step cards,
  the top's suits and the lock as the round does (:func:`strategies.playouts.playout`),
  the solver plays sequences, and the candidates add every sequence of cards held when
  leading and every legal answer on a sequence.

``clairvoyant`` runs the same search on the one true deal: it sees every hand, which no
player can, and is a yardstick of what guessing costs, in no default line-up.
Parameters: ``CHAMPION_PARAMS`` (:mod:`strategies.specs`), then ``linear``'s from
``CHAMPION_POLICY_SLOT``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.kernel.bits import U0, U1, ctz, next32, popc
from simulator.kernel.config import ALLOC
from simulator.kernel.knowledge import CARDS, H_SIZE
from simulator.kernel.layout import (
    DECK,
    MAX_PLAYERS,
    R_TRICK_FLAGS,
    S_ANSWERED,
    S_N,
    S_TOP_COUNT,
    S_TOP_RANK,
)
from simulator.kernel.legal import legal_plays, play_count, play_rank
from simulator.kernel.runs import is_run
from simulator.kernel.step import skipped_on_top
from simulator.rules.cards import NUM_RANKS
from strategies.endgame import out_in_two, solver_memory
from strategies.hand import whole
from strategies.kernels import random_move
from strategies.linear import finite_weights, linear_move, move_score, situation
from strategies.linear_runs import reads_suits
from strategies.montecarlo import policy_params, race, relabelled, sample_deal
from strategies.playouts import playout
from strategies.specs import (
    CHAMPION_BUDGET,
    CHAMPION_DOSE,
    CHAMPION_EXPLORE,
    CHAMPION_GUESSES,
    CHAMPION_MARGIN,
    CHAMPION_PLIES,
    CHAMPION_POLICY_SLOT,
    CHAMPION_RACE,
    CHAMPION_SOLVE,
    CHAMPION_TEMPERATURE,
    LINEAR_TEMPERATURE,
)
from strategies.suited_search import (
    allowed_state,
    answering_runs,
    searches_suits,
    suited_candidates,
)

NO_MOVE = 1 << 20  # a UCB score below any real one


@njit(**ALLOC)
def log_likelihood(pos, S, G, R, played, lparams, temperature, S1):
    """The log-probability, under ``linear`` as a softmax at ``temperature``, that the
    players who passed on the top now on the table did so, had they held the guessed
    hands ``G`` (the state they passed in is this one: only passes follow a play). With
    suits (``G`` a whole ``H`` array), a passer's plays are those his guessed cards allow,
    written into ``S1``, a copy of ``S``.

    The players the top skipped (the round state records them: :func:`skipped_on_top`)
    did not pass, so they count for nothing.
    """
    if S[S_TOP_COUNT] == 0 or not temperature > 0:
        return 0.0
    passers = S[S_ANSWERED] & ~(1 << pos) & ~skipped_on_top(S)
    total = 0.0
    while passers != 0:
        q = ctz(np.uint64(passers))
        passers &= passers - 1
        if searches_suits(R, G):
            allowed_state(S, G[CARDS + q], S[S_TOP_RANK], S[S_TOP_COUNT], R[R_TRICK_FLAGS], S1)
            total += pass_log_probability(q, S1, G, R, played, lparams, temperature)
        else:
            total += pass_log_probability(q, S, G, R, played, lparams, temperature)
    return total


@njit(**ALLOC)
def pass_log_probability(q, S, G, R, played, lparams, temperature):
    """log P(pass) for player ``q`` holding ``G[q]``: the pass's softmax share among his
    moves (0 when he had no legal play)."""
    h, out, u, fewest, owner_cards, last = situation(q, S, G, R, played)
    m = legal_plays(h, S, R)
    if m == U0:
        return 0.0
    at = np.uint64(q)
    finite = finite_weights(lparams, at)
    k = G[CARDS + at] if reads_suits(R, G) else U0  # his cards, where linear reads suits
    scores = np.empty(popc(m) + 1)
    scores[0] = move_score(h, 0, 0, out, u, S, R, fewest, owner_cards, last, lparams, at, finite, k)
    scores[0] /= temperature  # the pass's
    i = 1
    while m != U0:
        b = ctz(m)
        m &= m - U1
        r, c = play_rank(b), play_count(b)
        v = move_score(h, r, c, out, u, S, R, fewest, owner_cards, last, lparams, at, finite, k)
        scores[i] = v / temperature
        i += 1
    top = scores.max()
    return scores[0] - top - np.log(np.exp(scores - top).sum())


@njit(**ALLOC)
def resample(logw, rs):
    """Indices of the guesses drawn in proportion to ``exp(logw)``, as many as there are
    guesses, by systematic resampling (one uniform draw): equal weights keep every
    guess once, in order."""
    g = logw.size
    w = np.exp(logw - logw.max())
    step = w.sum() / g
    x = step * (next32(rs) / 4294967296.0)
    order = np.zeros(g, np.int64)
    k = 0
    acc = w[0]
    for j in range(g):
        while x > acc and k < g - 1:
            k += 1
            acc += w[k]
        order[j] = k
        x += step
    return order


@njit(**ALLOC)
def guess_hands(pos, S, H, R, played, rs, lparams, see_all, count, temperature, suited):
    """``count`` guessed deals (one row of hands each), weighted by :func:`log_likelihood`
    and resampled: the rows in the order the playouts use them. ``see_all``: the one
    true deal. With ``suited``, each row is a whole ``H`` array, the guess's cards
    included (:func:`strategies.suited_search.deal_suits`)."""
    width = H_SIZE if suited else MAX_PLAYERS
    if see_all:
        hands = np.zeros((1, width), np.uint64)
        for j in range(width):
            hands[0, j] = H[j]
        return hands
    hands = np.zeros((count, width), np.uint64)
    logw = np.zeros(count)
    cnt = np.zeros(NUM_RANKS, np.int64)
    need = np.zeros(MAX_PLAYERS, np.int64)
    pool = np.zeros(DECK, np.int64)
    ranks = np.zeros(MAX_PLAYERS, np.uint64)
    S1 = S.copy()
    for k in range(count):
        sample_deal(pos, S, H, R, played, rs, hands[k], ranks, cnt, need, pool, suited)
        logw[k] = log_likelihood(pos, S, hands[k], R, played, lparams, temperature, S1)
    order = resample(logw, rs)
    out = np.zeros((count, width), np.uint64)
    for k in range(count):
        out[k] = hands[order[k]]
    return out


@njit(**ALLOC)
def ucb_pick(total, visits, cap, played_out, explore):
    """The candidate with the highest UCB1 score among those played out on fewer than
    ``cap`` guesses, or -1 when none is left."""
    best, pick = -NO_MOVE, -1
    lg = np.log(played_out)
    for i in range(visits.size):
        if visits[i] >= cap:
            continue
        v = total[i] / visits[i] + explore * np.sqrt(lg / visits[i])
        if v > best:
            best, pick = v, i
    return pick


@njit(**ALLOC)
def candidates(pos, S, H, R, prior_r, prior_c):
    """The candidate moves as ``(ranks, counts, prior index)``: every legal play and the
    pass when following, every group whole when leading, and the prior's move."""
    h = H[pos]
    leading = S[S_TOP_COUNT] == 0
    cand = whole(h, h) if leading else legal_plays(h, S, R)
    nplays = popc(cand)
    nmoves = nplays + (0 if leading else 1)
    cr = np.zeros(nmoves + 1, np.int64)
    cc = np.zeros(nmoves + 1, np.int64)  # the pass, when present, is (0, 0) after the plays
    for i in range(nplays):
        b = ctz(cand)
        cand &= cand - U1
        cr[i] = play_rank(b)
        cc[i] = play_count(b)
    for i in range(nmoves):
        if cr[i] == prior_r and cc[i] == prior_c:
            return cr[:nmoves], cc[:nmoves], i
    cr[nmoves] = prior_r
    cc[nmoves] = prior_c
    return cr, cc, nmoves


@njit(**ALLOC)
def search(pos, S, H, R, played, rs, params, see_all):
    """The move of ``champion`` (``see_all`` false) or ``clairvoyant`` (see the module);
    with chance ``dose``, ``random``'s instead (no draw at all when ``dose`` is 0)."""
    dose = params[pos, CHAMPION_DOSE]
    if dose > 0 and next32(rs) < dose * 4294967296.0:
        return random_move(pos, S, H, R, rs)
    suited = searches_suits(R, H)
    if is_run(S[S_TOP_COUNT]) and not suited:  # on a sequence, without cards: linear's answer
        return linear_move(
            pos, S, H, R, played, rs, policy_params(pos, params, CHAMPION_POLICY_SLOT)
        )
    h = H[pos]
    m = legal_plays(h, S, R)
    if S[S_TOP_COUNT] != 0 and m == U0 and answering_runs(pos, S, H, R) == 0:
        return 0, 0
    if S[S_TOP_COUNT] == 0 and popc(whole(h, h)) == 1:
        b = ctz(whole(h, h))
        return play_rank(b), play_count(b)
    r, c = out_in_two(pos, S, H, R, played)
    if r >= 0:
        return r, c
    lparams = policy_params(pos, params, CHAMPION_POLICY_SLOT)
    pr, pc = linear_move(pos, S, H, R, played, rs, lparams)
    if suited:
        cr, cc, prior = suited_candidates(pos, S, H, R, pr, pc)
    else:
        cr, cc, prior = candidates(pos, S, H, R, pr, pc)
    if cr.size == 1:
        return pr, pc
    temperature = params[pos, CHAMPION_TEMPERATURE]
    count = max(1, np.int64(params[pos, CHAMPION_GUESSES]))
    guesses = guess_hands(pos, S, H, R, played, rs, lparams, see_all, count, temperature, suited)
    if params[pos, CHAMPION_RACE] > 0:
        best = spend_racing(pos, S, R, played, rs, params, lparams, cr, cc, prior, guesses)
        return cr[best], cc[best]
    total, visits = spend(pos, S, R, played, rs, params, lparams, cr, cc, guesses)
    best = choice(total, visits, prior, S[S_N], params[pos, CHAMPION_MARGIN])
    return cr[best], cc[best]


@njit(**ALLOC)
def spend_racing(pos, S, R, played, rs, params, lparams, cr, cc, prior, guesses):
    """The candidate to play, by a race over the guesses: each guess in turn, every
    candidate still in the race played out on it, and the candidates that can no longer
    overrule the prior dropped (:func:`strategies.montecarlo.race`) until only the prior
    is left, the guesses are spent or ``budget`` playouts are. Then the best mean place
    among those left, the prior's move unless beaten by ``margin``."""
    S0 = relabelled(S)
    S2 = np.zeros(S.size, np.int64)
    H2 = np.zeros(guesses.shape[1], np.uint64)
    played2 = np.zeros(NUM_RANKS, np.int64)
    places2 = np.zeros(MAX_PLAYERS, np.int64)
    count, keep = np.zeros(3, np.int64), solver_memory()
    nmoves, g = cr.size, guesses.shape[0]
    limit = np.int64(params[pos, CHAMPION_SOLVE])
    plies = np.int64(params[pos, CHAMPION_PLIES])
    budget = max(np.int64(params[pos, CHAMPION_BUDGET]), nmoves)
    need = params[pos, CHAMPION_MARGIN] * g  # the lead in summed places to overrule the prior
    total = np.zeros(nmoves, np.int64)
    last = np.zeros(nmoves, np.int64)
    diff2 = np.zeros(nmoves, np.int64)
    live = np.ones(nmoves, np.int64)
    spent, done = 0, 0
    for j in range(g):
        if spent + live.sum() > budget and j > 0:
            break
        for i in range(nmoves):
            if live[i]:
                last[i] = playout(pos, cr[i], cc[i], guesses[j], S0, R, played, rs, lparams,
                                  limit, plies, S2, H2, played2, places2, count, keep)  # fmt: skip
                spent += 1
        done = j + 1
        if race(last, total, diff2, live, nmoves, prior, done, g - done, need) == 0:
            return prior
    best = prior
    for i in range(nmoves):
        if live[i] and total[i] < total[best]:
            best = i
    return best if total[prior] - total[best] > need * done / g else prior


@njit(**ALLOC)
def spend(pos, S, R, played, rs, params, lparams, cr, cc, guesses):
    """Spend the budget of playouts on the candidates ``cr``/``cc``: each once, then
    by UCB1. Returns each one's summed reward (1 for the best place, 0 the worst) and
    playouts."""
    n = S[S_N]
    S0 = relabelled(S)
    S2 = np.zeros(S.size, np.int64)
    H2 = np.zeros(guesses.shape[1], np.uint64)
    played2 = np.zeros(NUM_RANKS, np.int64)
    places2 = np.zeros(MAX_PLAYERS, np.int64)
    count, keep = np.zeros(3, np.int64), solver_memory()
    nmoves = cr.size
    g = guesses.shape[0]
    deterministic = not lparams[0, LINEAR_TEMPERATURE] > 0
    cap = g if deterministic else NO_MOVE
    limit = np.int64(params[pos, CHAMPION_SOLVE])
    plies = np.int64(params[pos, CHAMPION_PLIES])
    budget = max(np.int64(params[pos, CHAMPION_BUDGET]), nmoves)
    explore = params[pos, CHAMPION_EXPLORE]
    total = np.zeros(nmoves)
    visits = np.zeros(nmoves, np.int64)
    for k in range(budget):
        i = k if k < nmoves else ucb_pick(total, visits, cap, k, explore)
        if i < 0:
            break
        place = playout(pos, cr[i], cc[i], guesses[visits[i] % g], S0, R, played, rs,
                        lparams, limit, plies, S2, H2, played2, places2, count, keep)  # fmt: skip
        total[i] += (n - place) / (n - 1)
        visits[i] += 1
    return total, visits


@njit(**ALLOC)
def choice(total, visits, prior, n, margin):
    """The candidate with the best mean, unless the prior's mean place is within
    ``margin`` of it (``n`` players)."""
    best = prior
    for i in range(visits.size):
        if total[i] / visits[i] > total[best] / visits[best]:
            best = i
    gain = (total[best] / visits[best] - total[prior] / visits[prior]) * (n - 1)
    return best if gain > margin else prior


@njit(**ALLOC)
def champion_move(pos, S, H, R, played, roles, rs, params):
    """``champion``'s move: ``(rank, count)``, count 0 = pass."""
    return search(pos, S, H, R, played, rs, params, np.bool_(False))


@njit(**ALLOC)
def clairvoyant_move(pos, S, H, R, played, roles, rs, params):
    """``clairvoyant``'s move: the same search on the true deal (it sees every hand)."""
    return search(pos, S, H, R, played, rs, params, np.bool_(True))
