"""``larger_sets``: whether more cards beat fewer (``off``, ``higher_rank``, ``any``),
and which the reference strategy ``lowest`` then prefers. Hand-worked scenarios (see
:mod:`tests.reference.scenarios`)."""

from __future__ import annotations

from tests.reference.scenarios.notation import check


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
