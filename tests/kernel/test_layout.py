"""The kernel's rules array derived from the rule spec: one slot per option in the spec's
order, each choice by its index, and the rule flags computed once by ``rules_array``."""

from __future__ import annotations

import pytest

from simulator.kernel import layout
from simulator.kernel.layout import (
    BY_LEFT,
    BY_PRESIDENT,
    FLAGS,
    R_FLAGS,
    R_SIZE,
    R_TRICK_FLAGS,
    SLOT,
    code,
    rules_array,
)
from simulator.kernel.step import rule_flags, trick_rule_flags
from simulator.rules.options import BOOL_KEYS, CHOICES, KEYS, Rules
from simulator.rules.presets import PRESET_NAMES, preset

NEEDS = {  # the options a value is refused without (the rule spec's own checks)
    ("after_out_lead", "last_in_trick"): {"passing": "out_of_trick"},
    ("spade_three_return", True): {"jokers": 1},
    ("sequence_revolution", 4): {"sequences": "above_highest"},
    ("sequence_revolution", 5): {"sequences": "above_highest"},
    ("eights_in_sequences", "plain"): {"sequences": "above_highest", "eight_ends_trick": True},
    ("opening_three", "diamonds"): {"clubs_three_opens": "first_round"},
}


def one_option(key, value):
    return Rules().with_options(**NEEDS.get((key, value), {}), **{key: value})


def test_every_option_has_a_slot_in_the_spec_order_and_none_overlap():
    starts = [SLOT[k] for k in KEYS]
    assert starts == sorted(starts) and starts[0] == 0
    widths = [b - a for a, b in zip(starts, [*starts[1:], R_FLAGS], strict=True)]
    assert all(w >= 1 for w in widths)
    assert R_SIZE == R_TRICK_FLAGS + 1 == R_FLAGS + 2


@pytest.mark.parametrize(
    ("key", "value"),
    [(k, v) for k in BOOL_KEYS for v in (False, True)]
    + [(k, v) for k, values in CHOICES.items() for v in values],
)
def test_an_option_is_written_to_its_slot(key, value):
    R = rules_array(one_option(key, value))
    expected = code(key, value) if isinstance(value, str) else int(value)
    assert R[SLOT[key]] == expected


def test_dealer_and_opener_number_whose_position_alike():
    assert code("dealer", "president") == BY_PRESIDENT
    assert code("dealer", "rotate") == BY_LEFT


@pytest.mark.parametrize(("word", "bit", "key", "value"), FLAGS)
def test_each_flag_is_set_by_its_option_alone(word, bit, key, value):
    off = rules_array(Rules())
    on = rules_array(one_option(key, value))
    assert off[word] & bit == 0
    assert on[word] & bit == bit
    extra = NEEDS.get((key, value), {})
    if not extra:  # only this bit changes
        assert on[word] == off[word] | bit
    read = rule_flags.py_func(on)[1] if word == R_FLAGS else trick_rule_flags.py_func(on)
    assert read & bit


def test_the_flag_bits_of_a_word_are_distinct_powers_of_two():
    for word in (R_FLAGS, R_TRICK_FLAGS):
        bits = [b for w, b, _, _ in FLAGS if w == word]
        assert all(b & (b - 1) == 0 for b in bits) and len(set(bits)) == len(bits)
        assert sum(bits) == (max(bits) << 1) - 1  # contiguous from 1


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_presets_give_the_kernel_its_exchange_and_points(name):
    rules = preset(name)
    R = rules_array(rules)
    n = rules.players
    assert R[layout.R_N] == n
    assert [R[layout.R_POINTS + p] for p in range(1, n + 1)] == [
        rules.points.for_place(p, n) for p in range(1, n + 1)
    ]
    pairs = R[layout.R_NEXCH]
    assert list(R[layout.R_EXCH : layout.R_EXCH + pairs]) == list(rules.exchange[:pairs])
