"""How the built-in players lay sequences (docs/strategies.md, "Sequences"), on readable
hands: the heuristics' shared sense (:mod:`strategies.sequences`), ``linear``'s features
of a sequence, and the search players' deferral to their prior.

Both engines play these strategies through the same compiled functions; their moves
agree move for move under ``uecda`` in ``test_strategies_vs_reference.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

from simulator.kernel.layout import S_SUIT_AT
from simulator.kernel.suits import suit_filter
from simulator.reference.moves import Run
from simulator.reference.rng import Stream
from simulator.reference.round import PASS, Move, Round
from simulator.rules.cards import JOKER, counts_from_ids, parse_suited_cards
from simulator.rules.options import Rules
from strategies import registry
from strategies.adapter import KernelStrategy
from strategies.linear_features import move_features
from strategies.montecarlo import relabelled

SEQ = Rules(jokers=1, sequences="above_highest")
THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN = range(10)
HEARTS, CLUBS, SPADES = 2, 0, 3


def card_ids(text: str) -> list[int]:
    """``"4H 5H JK"`` → card ids (``4 × rank + suit``, the joker 52)."""
    return parse_suited_cards(text.split())


def position(rules: Rules, hands: list[str], script: list[Move | Run] = ()) -> Round:
    """A round of readable suited hands, seat 0 leading, ``script`` applied."""
    ids = [card_ids(h) for h in hands]
    rnd = Round(rules, [counts_from_ids(i) for i in ids], 0, cards=ids)
    for m in script:
        rnd.apply(m)
    return rnd


def choice(name: str, rnd: Round, rules: Rules = SEQ) -> Move | Run:
    move = registry.make(name, rules).choose(rnd.observation(), Stream(3))
    return getattr(move, "move", move)  # a Named play: its move


OTHERS = ["6C 7C 8C", "9S 10S JS 2D"]


@pytest.mark.parametrize("name", ["keep-sets", "control", "shed-max", "planner", "rules-aware"])
def test_the_heuristics_lead_their_longest_plain_sequence(name):
    rnd = position(SEQ, ["4H 5H 6H 7H 9C 9D KS", *OTHERS])
    assert choice(name, rnd) == Run(FOUR, 4, HEARTS)


@pytest.mark.parametrize("name", ["keep-sets", "rules-aware"])
def test_no_sequence_that_breaks_a_pair_spends_a_joker_or_a_control(name):
    # 4 5 6 of hearts breaks the 5s; Q K A of clubs holds an ace; 7 8 of spades needs the joker
    rnd = position(SEQ, ["4H 5H 5D 6H QC KC AC 7S 8S JK", *OTHERS])
    assert not isinstance(choice(name, rnd), Run)


def test_on_a_sequence_the_weakest_plain_one_or_any_for_rules_aware():
    # on 4 5 6 of diamonds: 7 8 9 of clubs breaks the 9s, 10 J Q of hearts is plain
    hands = ["4D 5D 6D 3S", "7C 8C 9C 9S 10H JH QH", "3C 3H KD"]
    rnd = position(SEQ, hands, [Run(FOUR, 3, 1)])
    assert choice("keep-sets", rnd) == Run(TEN, 3, HEARTS)
    assert choice("rules-aware", rnd) == Run(SEVEN, 3, CLUBS)
    rnd = position(SEQ, ["4D 5D 6D 3S", "7C 8C 9C 9S", "3C 3H KD"], [Run(FOUR, 3, 1)])
    assert choice("keep-sets", rnd) == PASS
    assert choice("control", rnd) == PASS


def test_without_sequences_in_the_rules_nothing_changes():
    plain = Rules(jokers=1, suit_lock="suits")
    rnd = position(plain, ["4H 5H 6H 7H 9C 9D KS", *OTHERS])
    assert choice("keep-sets", rnd, plain) == Move(FOUR, 1)


def test_linear_features_of_a_sequence():
    rnd = position(SEQ, ["4S 5S 6S 6D KD", *OTHERS])
    f = move_features(rnd.observation(), Run(FOUR, 3, SPADES))
    assert (f["cards"], f["lead_cards"], f["breaks"], f["groups"]) == (3, 3, 1, 2)
    assert (f["weakest"], f["out"], f["joker"], f["two"], f["pass"]) == (1, 0, 0, 0, 0)
    assert f["strength"] == SIX / 12  # its strongest card, the 6
    with_joker = position(SEQ, ["4S JK 6S KD", *OTHERS])
    g = move_features(with_joker.observation(), Run(FOUR, 3, SPADES))
    assert (g["joker"], g["breaks"], g["groups"]) == (1, 0, 1)


def kernel_choice(name: str, rnd: Round) -> Move | Run:
    """The kernel function's move (the search players have no reference-engine twin)."""
    spec = registry.get(name, SEQ)
    strategy = KernelStrategy(spec.label, spec.kernel_id, spec.kernel_vector)
    return strategy.choose(rnd.observation(), Stream(3))


def test_a_search_forgets_the_suits_of_its_own_seat_when_it_plays_out():
    """The suits the player to move may lay hold in his position only: a playout of
    ``lowest`` that read them again offered every player the searcher's 3 of spades on a
    lone joker, which none held, and laid it forever (montecarlo hung under uecda)."""
    rules = Rules(jokers=1, spade_three_return=True)
    # seat 0 leads the 5, seat 1 lays the joker, seat 2 passes: seat 0 holds the 3 of
    # spades, the one play that beats the joker, and nobody else holds a 3
    rnd = position(rules, ["3S 5H 9C 9D", "JK 4D 8D KC", "6C 7H QS AD"],
                   [Move(FIVE, 1), Move(JOKER, 1), PASS])  # fmt: skip
    spec = registry.get("montecarlo", rules)
    strategy = KernelStrategy(spec.label, spec.kernel_id, spec.kernel_vector)
    S = strategy.arrays(rnd.observation())[0]
    everything = np.uint64(2**64 - 1)
    assert S[S_SUIT_AT] >= 0 and suit_filter(everything, S) != everything  # seat 0's suits
    assert suit_filter(everything, relabelled(S)) == everything  # forgotten in a playout
    assert strategy.choose(rnd.observation(), Stream(3)) in (Move(THREE, 1), PASS)


def test_linear_goes_out_on_a_sequence_and_the_search_players_follow_it():
    rnd = position(SEQ, ["4S 5S 6S 7S", *OTHERS])
    for name in ("linear", "champion", "montecarlo:prior=8"):
        assert kernel_choice(name, rnd) == Run(FOUR, 4, SPADES), name
    answer = position(SEQ, ["4D 5D 6D 3S", "8C 9C 10C KH", "3C 3H KD"], [Run(FOUR, 3, 1)])
    assert kernel_choice("champion", answer) == Run(EIGHT, 3, CLUBS)  # out next: linear's


def test_linear_features_of_the_suits():
    lock = Rules(jokers=1, suit_lock="suits", sequences="above_highest")
    # on the 9 of hearts seat 1 may lay its 10 of hearts (it locks) or of spades, or a
    # sequence: 4 5 6 of clubs are in a sequence, the 10s are not
    rnd = position(lock, ["9H 3D", "10H 10S 4C 5C 6C", "3C 3H KD"], [Move(NINE, 1)])
    obs = rnd.observation()
    ten = move_features(obs, Move(TEN, 1))
    assert (ten["locks"], ten["runs_left"], ten["sequence"]) == (1, 3 / 13, 0)
    assert move_features(obs, PASS)["runs_left"] == 3 / 13
    lead = position(lock, ["4C 5C 6C 7H", *OTHERS])
    run = move_features(lead.observation(), Run(FOUR, 3, CLUBS))
    assert (run["sequence"], run["locks"], run["runs_left"]) == (1, 0, 0)
    # without the rules that read suits, the suits' features are 0
    plain = position(Rules(jokers=1, spade_three_return=True), ["9H 3D", "10H 4C 5C 6C", "KD"])
    assert move_features(plain.observation(), Move(TEN, 1))["runs_left"] == 0


def test_linear_fast_score_is_the_dot_product_under_the_suits():
    """The fast score sums the suits' terms as the feature vector has them."""
    from simulator.kernel.knowledge import CARDS
    from simulator.kernel.layout import MAX_PLAYERS
    from simulator.rules.presets import preset
    from strategies.linear import features, finite_weights, move_score, situation
    from strategies.specs import LINEAR, LINEAR_FEATURES, NPARAMS

    rules = preset("uecda")
    rng = np.random.default_rng(3)
    strategy = KernelStrategy("linear", LINEAR, ())
    checked = 0
    for _ in range(3):
        weights = np.round(rng.normal(0, 1, LINEAR_FEATURES), 1)
        params = np.zeros((MAX_PLAYERS, NPARAMS))
        params[:, :LINEAR_FEATURES] = weights
        deck = [int(c) for c in rng.permutation(53)]
        ids = [deck[i::5] for i in range(5)]
        rnd = Round(rules, [counts_from_ids(i) for i in ids], 0, cards=ids)
        while not rnd.over:
            obs = rnd.observation()
            S, H, R, played, _ = strategy.arrays(obs)
            k = H[CARDS + obs.seat]
            h, out, u, fewest, owner_cards, last = situation(obs.seat, S, H, R, played)
            for move in obs.legal:
                if isinstance(move, Run):
                    continue
                f = features(h, move.rank, move.count, out, u, S, R, fewest, owner_cards, last, k)
                dot = sum(w * x for w, x in zip(weights, f, strict=True))
                fast = move_score(h, move.rank, move.count, out, u, S, R, fewest, owner_cards,
                                  last, params, 0, finite_weights(params, 0), k)  # fmt: skip
                assert fast == pytest.approx(dot, abs=1e-12), (obs, move)
                checked += 1
            rnd.apply(obs.legal[rng.integers(len(obs.legal))])
    assert checked > 100
