"""One option of RULES.md at a time (and a few together), every value, hand-worked.

Each scenario's expected events were derived by hand from RULES.md and
docs/READINGS.md (never by running the engine); the comments give the reasoning.
Unless a scenario says otherwise every seat plays ``lowest`` once the script runs out:
it leads all cards of its weakest rank and follows with the weakest legal play (fewest
cards on a tie), passing only when nothing is legal.
"""

from __future__ import annotations

from tests.scenarios.notation import check

# ---------------------------------------------------------------- jokers


def test_jokers_single_joker_beats_a_two():
    check(
        {"jokers": 2},
        ["2 5", "JK 4", "6 7"],
        leader=0,
        script=["0: 2"],
        expected=[
            "0: 2",
            "1: JK",  # a joker ranks above the 2; the 4 does not beat it
            "2: pass",
            "0: pass",
            "trick_end -> 1",
            "1: 4",
            "out 1 #1",
            "2: 6",
            "0: pass",  # 5 < 6
            "trick_end -> 2",
            "2: 7",
            "out 2 #2",
            "round_end 3 1 2",
        ],
    )


def test_jokers_pair_of_jokers_beats_a_pair_of_twos():
    check(
        {"jokers": 2},
        ["2 2 9", "JK JK 3", "A A 4"],
        leader=0,
        script=["0: 2 2"],
        expected=[
            "0: 2 2",
            "1: JK JK",  # the pair of jokers beats any pair
            "2: pass",  # A A < JK JK
            "0: pass",  # a single 9 never beats a pair
            "trick_end -> 1",
            "1: 3",
            "out 1 #1",
            "2: 4",  # weakest single above 3
            "0: 9",
            "out 0 #2",
            "round_end 2 1 3",
        ],
    )


def test_jokers_joker_on_joker_is_an_equal_play():
    """READINGS: jokers on a joker are an equal play (skip)."""
    check(
        {"jokers": 2, "equal_rank": "skip"},
        ["JK 5", "JK 6", "7 8"],
        leader=0,
        script=["0: JK"],
        expected=[
            "0: JK",
            "1: JK",  # equal play: the weakest (only) legal play
            "2: skip",
            "0: pass",  # 5 does not beat the joker
            "trick_end -> 1",  # 2 skipped and 0 passed since 1's joker
            "1: 6",
            "out 1 #1",
            "2: 7",
            "0: pass",
            "trick_end -> 2",
            "2: 8",
            "out 2 #2",
            "round_end 3 1 2",
        ],
    )


def test_no_jokers_nothing_beats_a_two():
    """jokers = 0 (default): the 2 is the highest card; everyone passes on it."""
    check(
        {"jokers": 0},
        ["2 5", "A 6", "K 7"],
        leader=0,
        script=["0: 2"],
        expected=[
            "0: 2",
            "1: pass",
            "2: pass",
            "trick_end -> 0",
            "0: 5",
            "out 0 #1",
            "1: 6",
            "2: 7",
            "1: A",
            "out 1 #2",
            "round_end 1 2 3",
        ],
    )


# ---------------------------------------------------------------- equal_rank


def test_equal_rank_off_equal_single_does_not_beat():
    check(
        {"equal_rank": "off"},
        ["5 9", "4 5", "6"],
        leader=0,
        script=[],
        expected=[
            "0: 5",
            "1: pass",  # its 5 only equals the 5; its 4 is lower
            "2: 6",
            "out 2 #1",
            "0: 9",
            "out 0 #2",
            "round_end 2 3 1",
        ],
    )


def test_equal_rank_off_equal_pair_does_not_beat():
    check(
        {"equal_rank": "off"},
        ["7 7 Q", "7 7 K", "8 8"],
        leader=0,
        script=["0: 7 7"],
        expected=[
            "0: 7 7",
            "1: pass",  # 7 7 only equals; a single K never beats a pair
            "2: 8 8",
            "out 2 #1",
            "0: pass",
            "1: pass",
            "trick_end -> 0",  # owner 2 out: next holder clockwise is 0
            "0: Q",
            "out 0 #2",
            "round_end 2 3 1",
        ],
    )


def test_equal_rank_skip_skips_the_next_player_and_trick_goes_on():
    check(
        {"equal_rank": "skip"},
        ["5 9", "5 J", "8 10", "6 Q"],
        leader=0,
        script=[],
        expected=[
            "0: 5",
            "1: 5",  # equal 5: the weakest legal play
            "2: skip",  # loses this turn
            "3: 6",  # the rank to beat is still 5
            "0: 9",
            "out 0 #1",
            "1: J",
            "out 1 #2",
            "2: pass",  # 8, 10 < J
            "3: Q",
            "out 3 #3",
            "round_end 1 2 4 3",
        ],
    )


def test_equal_rank_skip_of_the_last_one_to_answer_ends_the_trick():
    """The skipped player was the only one left to answer: the equaller plays again."""
    check(
        {"equal_rank": "skip"},
        ["5", "5 8", "6 7"],
        leader=0,
        script=[],
        expected=[
            "0: 5",
            "out 0 #1",
            "1: 5",
            "2: skip",
            "trick_end -> 1",  # the skip counts as a pass
            "1: 8",
            "out 1 #2",
            "round_end 1 2 3",
        ],
    )


def test_equal_rank_skip_and_pass_end_the_trick_may_return():
    check(
        {"equal_rank": "skip"},
        ["5 4", "5 9", "3 6"],
        leader=0,
        script=["0: 5"],
        expected=[
            "0: 5",
            "1: 5",
            "2: skip",
            "0: pass",  # 4 < 5
            "trick_end -> 1",  # 2 skipped, 0 passed since 1's 5
            "1: 9",
            "out 1 #1",
            "2: pass",
            "0: pass",
            "trick_end -> 2",  # owner 1 out: next holder clockwise
            "2: 3",
            "0: 4",
            "out 0 #2",
            "round_end 2 1 3",
        ],
    )


def test_equal_rank_skip_does_not_take_the_skipped_player_out_of_trick():
    """out_of_trick: 2 is skipped, not out of the trick; it plays after 3's new 8."""
    check(
        {"equal_rank": "skip", "passing": "out_of_trick"},
        ["5 K", "5 6", "9 7", "8 4"],
        leader=0,
        script=["0: 5", "1: 5", "3: 8", "0: pass", "1: pass", "2: 9"],
        expected=[
            "0: 5",
            "1: 5",
            "2: skip",
            "3: 8",
            "0: pass",
            "1: pass",
            "2: 9",  # allowed: the skip was not a pass
            "3: pass",  # 4 < 9; now 0, 1, 3 have passed in this trick
            "trick_end -> 2",
            "2: 7",
            "out 2 #1",
            "3: pass",  # 4 < 7
            "0: K",
            "out 0 #2",
            "1: pass",  # 6 < K; 3 passed in this trick and is not asked
            "trick_end -> 1",  # owner 0 out: next holder clockwise is 1
            "1: 6",
            "out 1 #3",
            "round_end 2 3 1 4",
        ],
    )


def test_equal_rank_skip_jumps_over_a_player_out_of_the_trick():
    """out_of_trick: the skipped player is the next one who would be asked (1 passed earlier)."""
    check(
        {"equal_rank": "skip", "passing": "out_of_trick"},
        ["5 Q", "6 K", "7 8", "7 A"],
        leader=0,
        script=["0: 5", "1: pass", "2: 7", "3: 7"],
        expected=[
            "0: 5",
            "1: pass",
            "2: 7",
            "3: 7",
            "0: skip",  # the next one asked after 3 (0 holds cards and has not passed)
            "2: 8",  # 1 is out of the trick; 2 beats the 7
            "out 2 #1",
            "3: A",
            "out 3 #2",
            "0: pass",  # asked (a skip is not a pass): Q < A
            "trick_end -> 0",  # owner 3 out: next holder clockwise is 0
            "0: Q",
            "out 0 #3",
            "round_end 3 4 1 2",
        ],
    )


# ---------------------------------------------------------------- larger_sets


def test_larger_sets_off_a_pair_never_beats_a_single():
    check(
        {"larger_sets": "off"},
        ["K 5", "9 9", "4 A"],
        leader=0,
        script=["0: K"],
        expected=[
            "0: K",
            "1: pass",  # a single 9 < K, and the pair may not be played on a single
            "2: A",
            "0: pass",
            "1: pass",
            "trick_end -> 2",
            "2: 4",
            "out 2 #1",
            "0: 5",
            "out 0 #2",
            "round_end 2 3 1",
        ],
    )


def test_larger_sets_off_a_three_never_beats_a_pair():
    check(
        {"larger_sets": "off"},
        ["6 6 9", "5 5 5 A", "8 8 K"],
        leader=0,
        script=["0: 6 6"],
        expected=[
            "0: 6 6",
            "1: pass",  # 5 5 is lower, 5 5 5 has more cards, A is a single
            "2: 8 8",
            "0: pass",
            "1: pass",
            "trick_end -> 2",
            "2: K",
            "out 2 #1",
            "0: pass",
            "1: A",
            "0: pass",
            "trick_end -> 1",
            "1: 5 5 5",
            "out 1 #2",
            "round_end 3 2 1",
        ],
    )


def test_larger_sets_higher_rank_pair_of_nines_beats_a_single_seven():
    check(
        {"larger_sets": "higher_rank"},
        ["7 K", "5 5 9 9", "8 8 J"],
        leader=0,
        script=["0: 7", "1: 9 9"],
        expected=[
            "0: 7",
            "1: 9 9",  # more cards, strictly higher rank
            "2: pass",  # the count to beat is now 2: 8 8 < 9 9, J is a single
            "0: pass",
            "trick_end -> 1",
            "1: 5 5",
            "out 1 #1",
            "2: 8 8",
            "0: pass",
            "trick_end -> 2",
            "2: J",
            "out 2 #2",
            "round_end 3 1 2",
        ],
    )


def test_larger_sets_higher_rank_three_on_a_pair():
    check(
        {"larger_sets": "higher_rank"},
        ["6 6 A", "7 7 7", "5 5 5 K"],
        leader=0,
        script=["0: 6 6", "1: 7 7 7"],
        expected=[
            "0: 6 6",
            "1: 7 7 7",
            "out 1 #1",
            "2: pass",  # 5 5 5 is not higher than 7 7 7; K has fewer cards
            "0: pass",
            "trick_end -> 2",
            "2: 5 5 5",
            "0: pass",
            "trick_end -> 2",
            "2: K",
            "out 2 #2",
            "round_end 3 1 2",
        ],
    )


def test_larger_sets_any_pair_of_threes_beats_a_single_king():
    check(
        {"larger_sets": "any"},
        ["K 4", "3 3 5", "8 8 A"],
        leader=0,
        script=["0: K", "1: 3 3"],
        expected=[
            "0: K",
            "1: 3 3",  # more cards beat fewer whatever the ranks
            "2: 8 8",  # the count to beat is now 2
            "0: pass",
            "1: pass",
            "trick_end -> 2",
            "2: A",
            "out 2 #1",
            "0: pass",
            "1: pass",
            "trick_end -> 0",
            "0: 4",
            "out 0 #2",
            "round_end 2 3 1",
        ],
    )


def test_larger_sets_any_lowest_prefers_the_weaker_rank_over_fewer_cards():
    """lowest: among all legal plays, the weakest rank first; fewest cards only on a tie."""
    check(
        {"larger_sets": "any"},
        ["K 9", "4 4 A", "5 5 5 J"],
        leader=0,
        script=["0: K"],
        expected=[
            "0: K",
            "1: 4 4",  # legal: A, 4 4 (any): 4 is the weaker rank
            "2: 5 5",  # legal: 5 5 and 5 5 5: same rank, fewest cards
            "0: pass",
            "1: pass",
            "trick_end -> 2",
            "2: 5",
            "0: 9",
            "out 0 #1",
            "1: A",
            "out 1 #2",
            "round_end 1 2 3",
        ],
    )


# ---------------------------------------------------------------- transparent_threes


def test_transparent_threes_take_the_rank_they_cover():
    check(
        {"transparent_threes": True},
        ["Q 5", "3 4", "J K"],
        leader=0,
        script=["0: Q", "1: 3"],
        expected=[
            "0: Q",
            "1: 3",  # takes the rank Q
            "2: K",  # J does not beat the Q the 3 took
            "0: pass",
            "1: pass",
            "trick_end -> 2",
            "2: J",
            "out 2 #1",
            "0: pass",
            "1: pass",
            "trick_end -> 0",
            "0: 5",
            "out 0 #2",
            "round_end 2 3 1",
        ],
    )


def test_transparent_threes_on_a_two_and_lowest_plays_them_first():
    """lowest counts transparent threes as rank 3 (READINGS): the weakest play."""
    check(
        {"transparent_threes": True},
        ["K K 9", "3 3 A A", "2 4"],
        leader=0,
        script=[],
        expected=[
            "0: 9",
            "1: 3",  # transparent, takes 9
            "2: 2",
            "0: pass",
            "1: 3",  # transparent on the 2: takes the rank 2
            "2: pass",  # nothing beats a 2 here
            "0: pass",
            "trick_end -> 1",
            "1: A A",
            "out 1 #1",
            "2: pass",
            "0: pass",  # K K < A A
            "trick_end -> 2",
            "2: 4",
            "out 2 #2",
            "round_end 3 1 2",
        ],
    )


def test_transparent_threes_led_are_plain_threes():
    check(
        {"transparent_threes": True},
        ["3 3 8", "4 4 9", "5 5"],
        leader=0,
        script=[],
        expected=[
            "0: 3 3",  # led: plain threes
            "1: 4 4",
            "2: 5 5",
            "out 2 #1",
            "0: pass",
            "1: pass",
            "trick_end -> 0",  # owner 2 out: next holder clockwise
            "0: 8",  # its last card
            "out 0 #2",
            "round_end 2 3 1",
        ],
    )


def test_transparent_threes_as_a_larger_set_are_plain_threes():
    check(
        {"transparent_threes": True, "larger_sets": "any"},
        ["K 9", "3 3 A", "4 4 J"],
        leader=0,
        script=["0: K", "1: 3 3"],
        expected=[
            "0: K",
            "1: 3 3",  # more cards than the top: plain threes (rank 3)
            "2: 4 4",  # beats a pair of 3s (it would not beat a pair that took K)
            "0: pass",
            "1: pass",
            "trick_end -> 2",
            "2: J",
            "out 2 #1",
            "0: pass",
            "1: A",
            "out 1 #2",
            "round_end 3 2 1",
        ],
    )


def test_transparent_threes_off_a_three_is_the_lowest_single():
    """Same deal as transparent threes on: without them 1 cannot answer the 8."""
    check(
        {"transparent_threes": False},
        ["8 Q", "3 4", "5 9"],
        leader=0,
        script=[],
        expected=[
            "0: 8",
            "1: pass",  # 3 and 4 are lower than 8
            "2: 9",
            "0: Q",
            "out 0 #1",
            "1: pass",
            "2: pass",
            "trick_end -> 1",  # owner 0 out: next holder clockwise
            "1: 3",
            "2: 5",
            "out 2 #2",
            "round_end 1 3 2",
        ],
    )


def test_transparent_threes_on_then_the_same_deal():
    check(
        {"transparent_threes": True},
        ["8 Q", "3 4", "5 9"],
        leader=0,
        script=[],
        expected=[
            "0: 8",
            "1: 3",  # transparent: takes the rank 8
            "2: 9",
            "0: Q",
            "out 0 #1",
            "1: pass",  # 4 < Q (no three left)
            "2: pass",
            "trick_end -> 1",
            "1: 4",  # its last card
            "out 1 #2",
            "round_end 1 2 3",
        ],
    )


def test_transparent_threes_with_skip_equal_rank_of_the_taken_rank():
    """A Q on threes that took Q is an equal play; the threes themselves are not."""
    check(
        {"transparent_threes": True, "equal_rank": "skip"},
        ["Q 8", "3 K", "Q 4", "3 A"],
        leader=0,
        script=["0: Q", "1: 3", "2: Q"],
        expected=[
            "0: Q",
            "1: 3",  # takes Q; 3 on a Q is no equal play: no skip
            "2: Q",  # equal to the rank the top carries
            "3: skip",
            "0: pass",  # 8 < Q
            "1: K",
            "out 1 #1",
            "2: pass",
            "3: 3",  # lowest: transparent threes count as rank 3; takes K, no skip
            "0: pass",
            "2: pass",
            "trick_end -> 3",
            "3: A",
            "out 3 #2",
            "0: pass",
            "2: pass",
            "trick_end -> 0",
            "0: 8",
            "out 0 #3",
            "round_end 3 1 4 2",
        ],
    )


def test_transparent_threes_with_skip_threes_on_threes():
    """Threes on a top of rank 3 are an equal play (skip)."""
    check(
        {"transparent_threes": True, "equal_rank": "skip"},
        ["3 9", "3 8", "5 J"],
        leader=0,
        script=[],
        expected=[
            "0: 3",
            "1: 3",  # equal play on threes
            "2: skip",
            "0: 9",
            "out 0 #1",
            "1: pass",  # 8 < 9
            "2: J",
            "1: pass",  # 8 < J
            "trick_end -> 2",
            "2: 5",
            "out 2 #2",
            "round_end 1 3 2",
        ],
    )


def test_transparent_threes_with_skip_threes_on_threes_that_took_q():
    """Threes on threes that took Q take Q again: no equal play, no skip."""
    check(
        {"transparent_threes": True, "equal_rank": "skip"},
        ["Q 9", "3 3", "3 K"],
        leader=0,
        script=["0: Q", "1: 3", "2: 3"],
        expected=[
            "0: Q",
            "1: 3",
            "2: 3",  # no skip: 0 is asked next
            "0: pass",
            "1: 3",  # still takes Q
            "out 1 #1",
            "2: K",
            "out 2 #2",
            "round_end 3 1 2",
        ],
    )


# ---------------------------------------------------------------- two_ends_trick


def test_two_ends_trick_on_a_two_played_on_a_single():
    check(
        {"two_ends_trick": True},
        ["5 9", "2 4", "8 K"],
        leader=0,
        script=[],
        expected=[
            "0: 5",
            "1: 2",  # ends the trick at once, nobody is asked
            "trick_end -> 1",
            "1: 4",
            "out 1 #1",
            "2: 8",
            "0: 9",
            "out 0 #2",
            "round_end 2 1 3",
        ],
    )


def test_two_ends_trick_on_a_led_pair_of_twos_going_out():
    check(
        {"two_ends_trick": True},
        ["2 2", "5 6", "4 7"],
        leader=0,
        script=[],
        expected=[
            "0: 2 2",
            "out 0 #1",
            "trick_end -> 1",  # ends at once; owner out: next holder clockwise
            "1: 5",
            "2: 7",
            "1: pass",
            "trick_end -> 2",
            "2: 4",
            "out 2 #2",
            "round_end 1 3 2",
        ],
    )


def test_two_ends_trick_on_regles_jeu_no_equal_two():
    """regles-jeu: a led 2 ends the trick, nobody may even equal it."""
    check(
        "regles-jeu",
        ["2 9", "2 5", "7 8"],
        leader=0,
        script=["0: 2"],
        expected=[
            "0: 2",
            "trick_end -> 0",  # 1's 2 would be an equal play, but nobody is asked
            "0: 9",
            "out 0 #1",
            "1: 2",
            "trick_end -> 1",  # no skip: the trick ended at once
            "1: 5",
            "out 1 #2",
            "round_end 1 2 3",
        ],
    )


def test_two_ends_trick_off_two_ends_only_after_passes():
    check(
        {"two_ends_trick": False},
        ["5 9", "2 4", "8 K"],
        leader=0,
        script=[],
        expected=[
            "0: 5",
            "1: 2",
            "2: pass",
            "0: pass",
            "trick_end -> 1",
            "1: 4",
            "out 1 #1",
            "2: 8",
            "0: 9",
            "out 0 #2",
            "round_end 2 1 3",
        ],
    )


def test_two_ends_trick_off_a_joker_beats_the_two():
    check(
        {"two_ends_trick": False, "jokers": 2},
        ["2 5", "JK 6", "4 7"],
        leader=0,
        script=["0: 2"],
        expected=[
            "0: 2",
            "1: JK",
            "2: pass",
            "0: pass",
            "trick_end -> 1",
            "1: 6",
            "out 1 #1",
            "2: 7",
            "0: pass",
            "trick_end -> 2",
            "2: 4",
            "out 2 #2",
            "round_end 3 1 2",
        ],
    )


def test_two_ends_trick_off_an_equal_two_skips():
    check(
        {"two_ends_trick": False, "equal_rank": "skip"},
        ["2 5", "2 6", "4 7"],
        leader=0,
        script=["0: 2"],
        expected=[
            "0: 2",
            "1: 2",
            "2: skip",
            "0: pass",
            "trick_end -> 1",
            "1: 6",
            "out 1 #1",
            "2: 7",
            "0: pass",
            "trick_end -> 2",
            "2: 4",
            "out 2 #2",
            "round_end 3 1 2",
        ],
    )


def test_two_ends_trick_during_a_revolution():
    check(
        {"two_ends_trick": True, "revolution": True},
        ["8 8 8 8 2 5", "3 K", "4 9"],
        leader=0,
        script=["0: 8 8 8 8"],
        expected=[
            "0: 8 8 8 8",  # revolution from the next play on
            "1: pass",
            "2: pass",
            "trick_end -> 0",
            "0: 2",  # now the weakest rank; still ends the trick at once
            "trick_end -> 0",
            "0: 5",
            "out 0 #1",
            "1: 3",  # reversed order: 3 beats 5, K does not
            "2: pass",  # nothing beats a 3 in a revolution
            "trick_end -> 1",
            "1: K",
            "out 1 #2",
            "round_end 1 2 3",
        ],
    )


# ---------------------------------------------------------------- quad_burns


def test_quad_burns_four_on_a_single_burns():
    check(
        {"quad_burns": True},
        ["K 4", "6 6 6 6 5", "9 A"],
        leader=0,
        script=["0: K"],
        expected=[
            "0: K",
            "1: 6 6 6 6",  # the only legal play on the K
            "trick_end -> 1",
            "1: 5",
            "out 1 #1",
            "2: 9",
            "0: pass",
            "trick_end -> 2",
            "2: A",
            "out 2 #2",
            "round_end 3 1 2",
        ],
    )


def test_quad_burns_led_four_burns():
    check(
        {"quad_burns": True},
        ["7 7 7 7 Q", "5 K", "4 A"],
        leader=0,
        script=[],
        expected=[
            "0: 7 7 7 7",
            "trick_end -> 0",  # also when it leads the trick
            "0: Q",
            "out 0 #1",
            "1: K",
            "2: A",
            "1: pass",
            "trick_end -> 2",
            "2: 4",
            "out 2 #2",
            "round_end 1 3 2",
        ],
    )


def test_quad_burns_four_on_a_pair_going_out():
    check(
        {"quad_burns": True},
        ["5 5 9", "J J J J", "6 6 K"],
        leader=0,
        script=["0: 5 5", "1: J J J J"],
        expected=[
            "0: 5 5",
            "1: J J J J",
            "out 1 #1",
            "trick_end -> 2",  # burnt; owner out: next holder clockwise
            "2: 6 6",
            "0: pass",
            "trick_end -> 2",
            "2: K",
            "out 2 #2",
            "round_end 3 1 2",
        ],
    )


def test_quad_burns_off_a_four_is_not_played_on_a_single():
    check(
        {"quad_burns": False},
        ["K 4", "6 6 6 6 5", "9 A"],
        leader=0,
        script=["0: K"],
        expected=[
            "0: K",
            "1: pass",
            "2: A",
            "0: pass",
            "1: pass",
            "trick_end -> 2",
            "2: 9",
            "out 2 #1",
            "0: pass",
            "1: pass",
            "trick_end -> 0",
            "0: 4",
            "out 0 #2",
            "round_end 2 3 1",
        ],
    )


def test_quad_burns_off_a_led_four_waits_for_passes():
    check(
        {"quad_burns": False},
        ["7 7 7 7 Q", "5 K", "4 A"],
        leader=0,
        script=[],
        expected=[
            "0: 7 7 7 7",
            "1: pass",
            "2: pass",
            "trick_end -> 0",
            "0: Q",
            "out 0 #1",
            "1: K",
            "2: A",
            "1: pass",
            "trick_end -> 2",
            "2: 4",
            "out 2 #2",
            "round_end 1 3 2",
        ],
    )


def test_quad_burns_four_threes_are_a_four_of_a_kind():
    check(
        {"quad_burns": True, "transparent_threes": True},
        ["K 6", "3 3 3 3 9", "7 A"],
        leader=0,
        script=["0: K", "1: 3 3 3 3"],
        expected=[
            "0: K",
            "1: 3 3 3 3",
            "trick_end -> 1",
            "1: 9",
            "out 1 #1",
            "2: A",
            "0: pass",
            "trick_end -> 2",
            "2: 7",
            "out 2 #2",
            "round_end 3 1 2",
        ],
    )


def test_quad_burns_with_revolution_burns_and_reverses():
    check(
        {"quad_burns": True, "revolution": True},
        ["9 9 9 9 K 4", "5 Q", "6 J"],
        leader=0,
        script=["0: 9 9 9 9"],
        expected=[
            "0: 9 9 9 9",
            "trick_end -> 0",
            "0: K",  # reversed order: K is weaker than 4
            "1: Q",
            "2: J",
            "0: 4",
            "out 0 #1",
            "1: pass",  # 5 is weaker than 4 in a revolution
            "2: pass",
            "trick_end -> 1",
            "1: 5",
            "out 1 #2",
            "round_end 1 2 3",
        ],
    )


# ---------------------------------------------------------------- revolution


def test_revolution_reverses_the_order_after_the_four():
    check(
        {"revolution": True},
        ["9 9 9 9 4 K", "5 Q", "6 J"],
        leader=0,
        script=["0: 9 9 9 9"],
        expected=[
            "0: 9 9 9 9",
            "1: pass",
            "2: pass",
            "trick_end -> 0",
            "0: K",  # lowest: weakest under the order in force
            "1: Q",  # the weakest rank that beats K in reverse
            "2: J",
            "0: 4",
            "out 0 #1",
            "1: pass",
            "2: pass",
            "trick_end -> 1",
            "1: 5",
            "out 1 #2",
            "round_end 1 2 3",
        ],
    )


def test_revolution_second_four_reverses_back():
    check(
        {"revolution": True},
        ["5 5 5 5 9", "4 4 4 4 K", "8 A"],
        leader=0,
        script=["0: 5 5 5 5"],
        expected=[
            "0: 5 5 5 5",
            "1: 4 4 4 4",  # in reverse 4 beats 5
            "2: pass",
            "0: pass",
            "trick_end -> 1",
            "1: K",
            "out 1 #1",
            "2: A",  # normal order again: A beats K (8 does not)
            "0: pass",
            "trick_end -> 2",
            "2: 8",
            "out 2 #2",
            "round_end 3 1 2",
        ],
    )


def test_revolution_jokers_stay_on_top():
    check(
        {"revolution": True, "jokers": 2},
        ["6 6 6 6 3", "JK 4", "5 7"],
        leader=0,
        script=["0: 6 6 6 6"],
        expected=[
            "0: 6 6 6 6",
            "1: pass",
            "2: pass",
            "trick_end -> 0",
            "0: 3",
            "out 0 #1",
            "1: JK",  # beats the 3 even in reverse
            "2: pass",
            "trick_end -> 1",
            "1: 4",
            "out 1 #2",
            "round_end 1 2 3",
        ],
    )


def test_revolution_with_transparent_threes():
    """Threes stay transparent during a revolution: they take the rank they cover."""
    check(
        {"revolution": True, "transparent_threes": True},
        ["7 7 7 7 9", "3 8", "5 K"],
        leader=0,
        script=["0: 7 7 7 7", "1: pass", "2: pass", "0: 9", "1: 3"],
        expected=[
            "0: 7 7 7 7",
            "1: pass",
            "2: pass",
            "trick_end -> 0",
            "0: 9",
            "out 0 #1",
            "1: 3",  # takes 9 (as a plain 3 nothing would beat it in reverse)
            "2: 5",  # in reverse 5 beats 9; K does not
            "1: pass",  # 8 is weaker than 5 in reverse
            "trick_end -> 2",
            "2: K",
            "out 2 #2",
            "round_end 1 3 2",
        ],
    )


def test_revolution_off_a_four_changes_nothing():
    check(
        {"revolution": False},
        ["9 9 9 9 4 K", "5 Q", "6 J"],
        leader=0,
        script=["0: 9 9 9 9"],
        expected=[
            "0: 9 9 9 9",
            "1: pass",
            "2: pass",
            "trick_end -> 0",
            "0: 4",
            "1: 5",
            "2: 6",
            "0: K",
            "out 0 #1",
            "1: pass",
            "2: pass",
            "trick_end -> 1",
            "1: Q",
            "out 1 #2",
            "round_end 1 2 3",
        ],
    )


def test_revolution_off_three_stays_weakest():
    check(
        {"revolution": False},
        ["8 8 8 8 3", "2 4", "5 6"],
        leader=0,
        script=["0: 8 8 8 8"],
        expected=[
            "0: 8 8 8 8",
            "1: pass",
            "2: pass",
            "trick_end -> 0",
            "0: 3",
            "out 0 #1",
            "1: 4",
            "2: 5",
            "1: 2",
            "out 1 #2",
            "round_end 1 2 3",
        ],
    )


# ---------------------------------------------------------------- no_finish_on_two


def test_no_finish_on_two_last_two_takes_the_worst_place():
    check(
        {"no_finish_on_two": True},
        ["2", "5 9", "4 8"],
        leader=0,
        script=[],
        expected=[
            "0: 2",
            "out 0 #3",  # goes out, but last
            "1: pass",
            "2: pass",
            "trick_end -> 1",
            "1: 5",
            "2: 8",
            "1: 9",
            "out 1 #1",
            "round_end 3 1 2",
        ],
    )


def test_no_finish_on_two_joker_then_two_take_last_then_second_to_last():
    check(
        {"no_finish_on_two": True, "jokers": 2},
        ["JK", "5 9", "2", "6 7"],
        leader=0,
        script=[],
        expected=[
            "0: JK",
            "out 0 #4",  # jokers count like 2s
            "1: pass",
            "2: pass",
            "3: pass",
            "trick_end -> 1",
            "1: 5",
            "2: 2",
            "out 2 #3",  # second such player: second-to-last
            "3: pass",
            "1: pass",
            "trick_end -> 3",
            "3: 6",
            "1: 9",
            "out 1 #1",
            "round_end 4 1 3 2",
        ],
    )


def test_no_finish_on_two_threes_that_took_a_two_go_out_normally():
    check(
        {"no_finish_on_two": True, "transparent_threes": True},
        ["2 9", "3", "4 5"],
        leader=0,
        script=["0: 2"],
        expected=[
            "0: 2",
            "1: 3",  # takes the rank 2
            "out 1 #1",  # its cards are a 3: the best place
            "2: pass",
            "0: pass",
            "trick_end -> 2",
            "2: 4",
            "0: 9",
            "out 0 #2",
            "round_end 2 1 3",
        ],
    )


def test_no_finish_on_two_during_a_revolution():
    check(
        {"no_finish_on_two": True, "revolution": True},
        ["7 7 7 7 2", "5 8", "4 9"],
        leader=0,
        script=["0: 7 7 7 7"],
        expected=[
            "0: 7 7 7 7",
            "1: pass",
            "2: pass",
            "trick_end -> 0",
            "0: 2",  # the weakest rank in reverse, still a 2
            "out 0 #3",
            "1: 8",  # weakest rank above 2 in reverse
            "2: 4",  # 4 beats 8 in reverse, 9 does not
            "1: pass",
            "trick_end -> 2",
            "2: 9",
            "out 2 #1",
            "round_end 3 2 1",
        ],
    )


def test_no_finish_on_two_off_last_two_takes_the_best_place():
    check(
        {"no_finish_on_two": False},
        ["2", "5 9", "4 8"],
        leader=0,
        script=[],
        expected=[
            "0: 2",
            "out 0 #1",
            "1: pass",
            "2: pass",
            "trick_end -> 1",
            "1: 5",
            "2: 8",
            "1: 9",
            "out 1 #2",
            "round_end 1 2 3",
        ],
    )


def test_no_finish_on_two_off_last_joker_takes_the_best_place():
    check(
        {"no_finish_on_two": False, "jokers": 2},
        ["JK", "5 9", "4 8"],
        leader=0,
        script=[],
        expected=[
            "0: JK",
            "out 0 #1",
            "1: pass",
            "2: pass",
            "trick_end -> 1",
            "1: 5",
            "2: 8",
            "1: 9",
            "out 1 #2",
            "round_end 1 2 3",
        ],
    )


# ---------------------------------------------------------------- more combinations


def test_equal_rank_skip_may_return_an_earlier_pass_does_not_count():
    """may_return: 1 passed before 2's equal 5 was laid, so after 0's skip 1 is asked."""
    check(
        {"equal_rank": "skip"},
        ["5 9", "4 8", "5 K"],
        leader=0,
        script=["0: 5", "1: pass", "2: 5"],
        expected=[
            "0: 5",
            "1: pass",
            "2: 5",
            "0: skip",  # the next player who would be asked after 2
            "1: 8",  # not "passed since the top was laid": asked, beats the 5
            "2: K",
            "out 2 #1",
            "0: pass",
            "1: pass",
            "trick_end -> 0",
            "0: 9",
            "out 0 #2",
            "round_end 2 3 1",
        ],
    )


def test_equal_rank_skip_out_of_trick_an_earlier_pass_counts():
    """The same script under out_of_trick: 1's pass still counts, the skip ends the trick."""
    check(
        {"equal_rank": "skip", "passing": "out_of_trick"},
        ["5 9", "4 8", "5 K"],
        leader=0,
        script=["0: 5", "1: pass", "2: 5"],
        expected=[
            "0: 5",
            "1: pass",
            "2: 5",
            "0: skip",
            "trick_end -> 2",  # 1 passed in this trick, 0 skipped: 2 plays again
            "2: K",
            "out 2 #1",
            "0: pass",
            "1: pass",
            "trick_end -> 0",
            "0: 9",
            "out 0 #2",
            "round_end 2 3 1",
        ],
    )


def test_regles_jeu_last_two_ends_trick_and_takes_the_worst_place():
    check(
        "regles-jeu",
        ["5 2", "6 9", "7 8"],
        leader=0,
        script=[],
        expected=[
            "0: 5",
            "1: 6",
            "2: 7",
            "0: 2",
            "out 0 #3",  # no_finish_on_two: the worst place
            "trick_end -> 1",  # two_ends_trick; owner out: next holder clockwise
            "1: 9",
            "out 1 #1",
            "round_end 3 1 2",
        ],
    )


def test_revolution_lowest_counts_transparent_threes_as_rank_three():
    """In a revolution the 3 is the strongest rank, so lowest prefers the 8 to a transparent 3."""
    check(
        {"revolution": True, "transparent_threes": True},
        ["7 7 7 7 9 Q", "3 8", "5 K"],
        leader=0,
        script=["0: 7 7 7 7"],
        expected=[
            "0: 7 7 7 7",
            "1: pass",
            "2: pass",
            "trick_end -> 0",
            "0: Q",  # weaker than 9 in reverse
            "1: 8",  # legal: 8 and a transparent 3; the 3 is the strongest rank now
            "2: 5",  # 5 beats 8 in reverse, K does not
            "0: pass",  # 9 is weaker than 5 in reverse
            "1: 3",  # transparent: takes the 5
            "out 1 #1",
            "2: pass",  # K does not beat 5 in reverse
            "0: pass",
            "trick_end -> 2",
            "2: K",
            "out 2 #2",
            "round_end 3 1 2",
        ],
    )


def test_transparent_threes_off_a_pair_of_threes_does_not_cover_kings():
    check(
        {"transparent_threes": False},
        ["K K 9", "3 3 A", "4 5"],
        leader=0,
        script=["0: K K"],
        expected=[
            "0: K K",
            "1: pass",  # 3 3 is a lower pair, A a single
            "2: pass",
            "trick_end -> 0",
            "0: 9",
            "out 0 #1",
            "1: A",
            "2: pass",
            "trick_end -> 1",
            "1: 3 3",
            "out 1 #2",
            "round_end 1 2 3",
        ],
    )


def test_quad_burns_four_low_cards_burn_a_joker():
    """A four may be played on any top, whatever its size and rank."""
    check(
        {"quad_burns": True, "jokers": 2},
        ["JK 9", "4 4 4 4 8", "5 K"],
        leader=0,
        script=["0: JK"],
        expected=[
            "0: JK",
            "1: 4 4 4 4",  # the only legal play on the joker
            "trick_end -> 1",
            "1: 8",
            "out 1 #1",
            "2: K",
            "0: pass",  # 9 < K
            "trick_end -> 2",
            "2: 5",
            "out 2 #2",
            "round_end 3 1 2",
        ],
    )


def test_transparent_threes_on_a_plain_three_without_equal_rank():
    """equal_rank off: a 3 on a 3 is still transparent (it takes the rank 3), with no skip."""
    check(
        {"transparent_threes": True},
        ["3 9", "3 8", "5 J"],
        leader=0,
        script=[],
        expected=[
            "0: 3",
            "1: 3",  # transparent, the weakest legal play
            "2: 5",  # not skipped
            "0: 9",
            "out 0 #1",
            "1: pass",
            "2: J",
            "out 2 #2",
            "round_end 1 3 2",
        ],
    )


def test_two_ends_trick_a_joker_does_not_end_the_trick():
    """READINGS: two_ends_trick applies to real 2s only."""
    check(
        {"two_ends_trick": True, "jokers": 2},
        ["JK 5", "6 7", "4 8"],
        leader=0,
        script=[],
        expected=[
            "0: 5",
            "1: 6",
            "2: 8",
            "0: JK",
            "out 0 #1",
            "1: pass",  # asked: the joker did not end the trick
            "2: pass",
            "trick_end -> 1",
            "1: 7",
            "out 1 #2",
            "round_end 1 2 3",
        ],
    )


def test_revolution_four_transparent_threes_flip_the_order_back():
    """Four threes on four 9s are transparent and, being a four, flip the order back."""
    check(
        {"revolution": True, "transparent_threes": True},
        ["9 9 9 9 5", "3 3 3 3 8", "K K K K 4"],
        leader=0,
        script=["0: 9 9 9 9"],
        expected=[
            "0: 9 9 9 9",  # reversed from the next play on
            "1: 3 3 3 3",  # transparent: takes 9; flips back to the normal order
            "2: K K K K",  # beats four 9s in the normal order; reversed again
            "0: pass",
            "1: pass",
            "trick_end -> 2",
            "2: 4",
            "out 2 #1",
            "0: pass",  # in reverse 5 does not beat 4
            "1: pass",  # nor does 8
            "trick_end -> 0",
            "0: 5",
            "out 0 #2",
            "round_end 2 3 1",
        ],
    )


def test_equal_rank_skip_out_of_trick_nobody_left_to_skip():
    """READINGS: with nobody left to ask after an equal play there is no skip; the trick ends.

    0 went out with the 5 and 1 passed (out of the trick): after 2's equal 5 nobody is left
    who could be asked, so no skip is recorded and 2 leads the next trick.
    """
    check(
        {"equal_rank": "skip", "passing": "out_of_trick"},
        ["5", "4 9", "5 K"],
        leader=0,
        script=["0: 5", "1: pass"],
        expected=[
            "0: 5",
            "out 0 #1",
            "1: pass",
            "2: 5",  # lowest: the equal 5
            "trick_end -> 2",
            "2: K",
            "out 2 #2",
            "round_end 1 3 2",
        ],
    )


def test_equal_rank_skip_may_return_the_passer_is_skipped():
    """The same script under may_return: 1 passed but is still in the trick, so 1 is skipped."""
    check(
        {"equal_rank": "skip"},
        ["5", "4 9", "5 K"],
        leader=0,
        script=["0: 5", "1: pass"],
        expected=[
            "0: 5",
            "out 0 #1",
            "1: pass",
            "2: 5",
            "1: skip",
            "trick_end -> 2",  # the skipped player was the only one left to answer
            "2: K",
            "out 2 #2",
            "round_end 1 3 2",
        ],
    )


def test_larger_sets_any_with_skip_a_pair_on_a_single_of_its_rank_is_no_equal_play():
    """An equal play needs the same number of cards: 7 7 on a 7 is a larger set, no skip."""
    check(
        {"larger_sets": "any", "equal_rank": "skip"},
        ["7 Q", "7 7 9", "8 8 K"],
        leader=0,
        script=["0: 7", "1: 7 7"],
        expected=[
            "0: 7",
            "1: 7 7",
            "2: 8 8",  # asked, not skipped; the count to beat is now 2
            "0: pass",
            "1: pass",
            "trick_end -> 2",
            "2: K",
            "out 2 #1",
            "0: pass",
            "1: pass",
            "trick_end -> 0",
            "0: Q",
            "out 0 #2",
            "round_end 2 3 1",
        ],
    )
