"""The search players with suits (:mod:`strategies.suited_search`), on readable cards.

A guess deals the unseen cards with their suits, a passer is weighed on what his guessed
suits allow, the playouts step the cards as the engines do, the solver sees a sequence
win, and the search players lay the sequence that wins.
"""

from __future__ import annotations

import numpy as np
import pytest

from simulator.kernel.knowledge import CARDS, H_SIZE, forget
from simulator.kernel.layout import (
    MAX_PLAYERS,
    R_TRICK_FLAGS,
    S_ACTIVE,
    S_ANSWERED,
    S_BEST_FREE,
    S_N,
    S_OWNER,
    S_PICK_AT,
    S_PRESIDENT,
    S_SIZE,
    S_SKIP_PLAY,
    S_TOP_COUNT,
    S_TOP_RANK,
    S_TOP_SUITS,
    S_TURN,
    S_WORST_FREE,
    rules_array,
)
from simulator.kernel.runs import is_run, run_move, runs_scan
from simulator.kernel.step import (
    ST_OVER,
    ST_TOP_COUNT,
    ST_TOP_RANK,
    ST_TURN,
    load_state,
    rule_flags,
    store_state,
    trick_rule_flags,
)
from simulator.kernel.suits import write_allowed
from simulator.reference.moves import Run
from simulator.reference.rng import Stream
from simulator.reference.round import PASS, Move, Round
from simulator.rules.cards import counts_from_ids, parse_suited_cards
from simulator.rules.options import Rules
from simulator.rules.presets import preset
from strategies import registry
from strategies.adapter import KernelStrategy, hand_mask
from strategies.champion import champion_move, clairvoyant_move, guess_hands, log_likelihood
from strategies.endgame import solve, solver_memory
from strategies.kernels import lowest_move
from strategies.montecarlo import montecarlo_move, policy_params
from strategies.specs import CHAMPION_POLICY_SLOT, LOWEST, MONTECARLO_PRIOR
from strategies.suited_search import (
    solve_suited,
    step_move,
    suited_candidates,
    unseen_cards,
)
from tests.kernel.scripted import play_scripted_round
from tests.strategies.test_champion import params_of

SEQ = Rules(jokers=1, sequences="above_highest", suit_lock="suits")
FOUR, FIVE, SEVEN, NINE = 1, 2, 4, 6
HEARTS = 2


def ids(text: str) -> list[int]:
    return parse_suited_cards(text.split())


def mask(text: str) -> np.uint64:
    return np.uint64(sum(1 << i for i in ids(text)))


def ranks_of(cards: np.uint64) -> np.uint64:
    """The rank hand of a card mask."""
    counts = [0] * 14
    for i in range(54):
        if int(cards) >> i & 1:
            counts[i // 4] += 1
    return np.uint64(hand_mask(counts))


def arrays(rules: Rules, hands: list[list[int]], script=()):
    """``(S, H, R, played)`` of the seat to move after ``script`` (``hands``: card ids),
    as the adapter writes them: the others' hands as placeholders."""
    rnd = Round(rules, [counts_from_ids(c) for c in hands], 0, cards=hands)
    for move in script:
        rnd.apply(move)
    S, H, R, played, _ = KernelStrategy("lowest", LOWEST, ()).arrays(rnd.observation())
    return S, H, R, played


def deal(*readable: str) -> list[list[int]]:
    """The hands of ``readable`` (the first seats) and the rest of the deck (one joker) in
    the last seat's: every card is in a hand, as in a round."""
    hands = [ids(text) for text in readable]
    given = {card for hand in hands for card in hand}
    return [*hands, [card for card in range(53) if card not in given]]


def endgame(rules: Rules, mine: str, theirs: str):
    """Three seats, seat 2 out: seat 0 (``mine``) leads against seat 1 (``theirs``); every
    card in neither hand has been played."""
    R = rules_array(rules.with_options(players=3))
    H = np.zeros(H_SIZE, np.uint64)
    forget(H)
    played = np.full(14, 4, np.int64)
    played[13] = rules.jokers
    for q, text in enumerate((mine, theirs)):
        H[CARDS + q] = mask(text)
        H[q] = ranks_of(H[CARDS + q])
        for i in ids(text):
            played[i // 4] -= 1
    S = np.zeros(S_SIZE, np.int64)
    S[S_N], S[S_TURN], S[S_TOP_RANK], S[S_TOP_COUNT], S[S_OWNER] = 3, 0, -1, 0, -1
    S[S_ACTIVE], S[S_BEST_FREE], S[S_WORST_FREE] = 0b011, 2, 3
    S[S_PRESIDENT], S[S_PICK_AT], S[S_SKIP_PLAY] = -1, -1, -1
    write_allowed(S, H[CARDS], -1, 0, R[R_TRICK_FLAGS])
    return S, H, R, played


def test_a_guess_deals_the_unseen_cards_with_their_suits() -> None:
    hands = deal("4H 5H 9C", "3C 7S 7D QH JK")  # seat 0 leads the 4 of hearts: seat 1 to move
    S, H, R, played = arrays(SEQ, hands, [Move(FOUR, 1)])
    lparams = policy_params(0, params_of("champion"), CHAMPION_POLICY_SLOT)
    rs = np.array([1, 2, 3], np.uint64)
    guesses = guess_hands(1, S, H, R, played, rs, lparams, False, 32, 0.0, True)
    unseen = unseen_cards(1, H, 3)
    assert int(unseen) == int(mask("5H 9C")) | sum(1 << card for card in hands[2])  # 4H out
    where = set()
    for g in guesses:
        assert g[CARDS + 1] == H[CARDS + 1]  # its own cards, as they are
        assert int(g[CARDS]) & int(g[CARDS + 2]) == 0
        assert g[CARDS] | g[CARDS + 2] == unseen  # every unseen card, once
        for q in (0, 2):
            assert ranks_of(g[CARDS + q]) == g[q]  # the cards behind the guessed ranks
        where.add(int(g[CARDS]) >> ids("5H")[0] & 1)
    assert where == {0, 1}  # the 5 of hearts is guessed in either hand


def test_a_passer_is_weighed_on_the_plays_his_guessed_suits_allow() -> None:
    # the 5 then the 7 of hearts lock the trick to hearts; seat 2 passed; seat 0 to move
    hands = [ids("5H 9C 3D"), ids("7H 4C"), ids("KS 4H 6D")]
    S, H, R, played = arrays(SEQ, hands, [Move(FIVE, 1), Move(SEVEN, 1), PASS])
    assert S[S_TURN] == 0 and S[S_ANSWERED] & 0b100
    lparams = policy_params(0, params_of("champion"), CHAMPION_POLICY_SLOT)
    locked_out, with_heart = H.copy(), H.copy()  # two guesses of seat 2's hand
    locked_out[CARDS + 2] = mask("KS 4H 6D")  # his king a spade: nothing he holds answers
    with_heart[CARDS + 2] = mask("KH 4S 6D")  # his king the heart: he would have laid it
    locked_out[2] = with_heart[2] = ranks_of(mask("KH 4S 6D"))  # by ranks, one guess
    assert log_likelihood(0, S, locked_out, R, played, lparams, 0.3, S.copy()) == 0.0
    assert log_likelihood(0, S, with_heart, R, played, lparams, 0.3, S.copy()) < -1.0


@pytest.mark.parametrize("rules", [preset("uecda"), SEQ], ids=["uecda", "lock"])
def test_the_playouts_step_cards_as_the_engine_does(rules: Rules) -> None:
    """A round of ``lowest`` played with the playouts' step moves as the reference
    engine's round does: the same moves (sequences, locks, the 3 of spades), the same
    places."""
    n = rules.players
    rng = np.random.default_rng(5)
    tr = trick_rule_flags(rules_array(rules))
    for _ in range(12):
        deck = [int(c) for c in rng.permutation(52 + rules.jokers)]
        cards = [sorted(deck[i::n]) for i in range(n)]
        rnd = Round(rules, [counts_from_ids(c) for c in cards], 0, cards=cards)
        S, H, R, played, _ = KernelStrategy("lowest", LOWEST, ()).arrays(rnd.observation())
        S[S_BEST_FREE], S[S_WORST_FREE] = 1, n  # (an observation does not tell them)
        for q in range(n):  # the true hands behind the adapter's placeholders
            H[CARDS + q] = sum(1 << card for card in cards[q])
            H[q] = ranks_of(H[CARDS + q])
        places = np.zeros(MAX_PLAYERS, np.int64)
        st, fl = load_state(S), rule_flags(R)
        lowest = registry.make("lowest", rules)
        while not rnd.over:
            expected = lowest.choose(rnd.observation(), Stream(1))
            p, t, tc = st[ST_TURN], st[ST_TOP_RANK], st[ST_TOP_COUNT]
            assert p == rnd.observation().seat
            store_state(S, st)
            write_allowed(S, H[CARDS + p], t, tc, tr)
            r, c = lowest_move(p, S, H, R)
            if isinstance(expected, Run):
                assert (r, c) == (expected.low, run_move(expected.length, expected.suit))
            elif expected == PASS:
                assert c == 0
            else:
                assert (r, c) == (expected.rank, expected.count)
            st = step_move(True, st, fl, tr, p, r, c, H, R, played, places, S)
            rnd.apply(expected)
        assert st[ST_OVER]
        assert list(places[:n]) == [rnd.places[q] for q in range(n)]


def test_the_solver_with_suits_sees_the_sequence_that_wins() -> None:
    # the 4 5 6 of hearts and the 9 of spades against a king and a queen: the sequence
    # nobody answers, then the 9; any single lead loses the race
    S, H, R, played = endgame(SEQ, "4H 5H 6H 9S", "KC QD")
    tr = trick_rule_flags(R)

    def verdict(r: int, c: int, suited: bool) -> int:
        S2, H2, played2 = S.copy(), H.copy(), played.copy()
        places = np.zeros(MAX_PLAYERS, np.int64)
        fl = rule_flags(R)
        st = step_move(True, load_state(S2), fl, tr, 0, r, c, H2, R, played2, places, S2)
        count = np.array([0, 100_000, 0])
        if suited:
            return solve_suited(0, 1, st, H2, R, played2, places, S2, count, solver_memory())
        return solve(0, 1, st, H2, R, played2, places, S2, count, solver_memory())

    assert verdict(FOUR, run_move(3, HEARTS), True) == 1
    for r in (FOUR, FIVE, 3, NINE):
        assert verdict(r, 1, True) == 0
        assert verdict(r, 1, False) == 0  # by ranks alone no lead wins


def test_the_candidates_hold_the_sequences() -> None:
    # leading: every group whole and the sequence of cards held (the joker's are the prior's)
    S, H, R, _ = endgame(SEQ, "4H 5H 6H 9C 9D JK", "KC QD")
    cr, cc, prior = suited_candidates(0, S, H, R, FOUR, 1)
    moves = set(zip(cr.tolist(), cc.tolist(), strict=True))
    assert moves == {(1, 1), (2, 1), (3, 1), (6, 2), (13, 1), (FOUR, run_move(3, HEARTS))}
    assert (cr[prior], cc[prior]) == (FOUR, 1)
    # on the 3 4 5 of clubs: every sequence that answers it, then the pass
    S, H, R, _ = arrays(SEQ, [ids("3C 4C 5C KD"), ids("7S 8S 9S 6D JK"), ids("3H 3S")],
                        [Run(0, 3, 0)])  # fmt: skip
    cr, cc, _ = suited_candidates(1, S, H, R, 0, 0)
    k = H[CARDS + 1]
    count = runs_scan(k, S[S_TOP_RANK], S[S_TOP_COUNT], 0, 0, R[R_TRICK_FLAGS], -1)[0]
    assert count >= 2 and cr.size == count + 1
    assert all(is_run(c) for c in cc[:-1]) and (cr[-1], cc[-1]) == (0, 0)


def test_the_search_players_lay_the_sequence_that_wins() -> None:
    S, H, R, played = endgame(SEQ, "4H 5H 6H 9S", "KC QD")
    assert S[S_TOP_SUITS] == 0
    roles = np.zeros(MAX_PLAYERS, np.int64)
    run = (FOUR, run_move(3, HEARTS))
    for move in (champion_move, clairvoyant_move):
        assert move(0, S, H, R, played, roles, np.array([1, 2, 3], np.uint64),
                    params_of("champion")) == run, move  # fmt: skip
    params = params_of("montecarlo")
    params[:, MONTECARLO_PRIOR] = LOWEST  # its prior leads the 4: the search must beat it
    assert montecarlo_move(0, S, H, R, played, roles, np.array([1, 2, 3], np.uint64),
                           params) == run  # fmt: skip


@pytest.mark.parametrize("search", ["montecarlo", "champion:budget=16", "clairvoyant:budget=16"])
def test_the_search_players_play_legal_rounds_under_uecda(search: str) -> None:
    """Every move is checked by the kernel's legality test as it plays (sequences, the
    lock, the 3 of spades), and a seed plays the same round again."""
    rules = preset("uecda")
    rng = np.random.default_rng(7)
    for seed in range(3):
        deck = [int(c) for c in rng.permutation(53)]
        cards = [sorted(deck[i::5]) for i in range(5)]
        leader = next(s for s in range(5) if ids("3D")[0] in cards[s])
        seats = [search, "random", "lowest", search, "rules-aware"]
        hands = [counts_from_ids(c) for c in cards]
        events = play_scripted_round(rules, hands, leader, seats, (), seed, (), cards)
        assert events[-1]["event"] == "round_end"
        assert sorted(events[-1]["places"]) == [1, 2, 3, 4, 5]
        assert play_scripted_round(rules, hands, leader, seats, (), seed, (), cards) == events


@pytest.mark.parametrize("rule", ["seven_passes", "ten_discards"])
def test_the_solvers_leave_the_position_as_they_found_it(rule: str) -> None:
    """A try of 7s hands a card to the other player, of 10s discards one: both solvers
    put every hand and every count of the cards played back after their tries (the one
    by ranks once left the gift in the receiver's hand, the discard counted)."""
    for suits in (False, True):
        rules = Rules(jokers=1, **{rule: True}, **({"suit_lock": "suits"} if suits else {}))
        S, H, R, played = endgame(rules, "7H 7S 10C 10D 4C 5C", "2C 2D AH AS KC KD")
        before = (H.copy(), played.copy(), S.copy())
        count = np.array([0, 100_000, 0])
        solver = solve_suited if suits else solve
        solver(0, 1, load_state(S), H, R, played, np.zeros(MAX_PLAYERS, np.int64), S, count,
               solver_memory())  # fmt: skip
        assert count[0] > 10  # it searched (every try loses: the other holds the 2s)
        assert np.array_equal(H, before[0]) and np.array_equal(played, before[1])
        assert np.array_equal(S, before[2])
