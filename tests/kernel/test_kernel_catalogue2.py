"""The kernel is the reference engine's twin under the second catalogue too, and under
the third's (``five_skips``, ``capital_falls``, ``seven_passes``, ``ten_discards``, and the
rules that read suits, ``suit_lock``, ``spade_three_return`` and ``sequences``: the
traces then carry each play's suits, and a sequence its length).

Each new option value alone, on the presets that make it playable, and all of them
together (with the first catalogue's options on as well): 3 to 8 players, ``lowest``,
``random`` and mixes, whole matches with the exchange, the full move sequences, places,
points, and who dealt and who led each round (the 3 of clubs decides the leader).
"""

from __future__ import annotations

import pytest

import tests.kernel.test_kernel_vs_reference as twin
from simulator.matchloop.api import KernelJob, trace_match
from simulator.matchloop.matches import OUT_DEALER, OUT_LEADER
from simulator.reference.match import play_match
from simulator.rules.options import Rules
from simulator.rules.presets import preset
from strategies import registry

# compiles the loop of lowest and random under table rules first, which
# test_fuzz_kernel.py then loads: in the middle of the run both had compiled it (12 s)
pytestmark = pytest.mark.early

CATALOGUE_2 = {
    "eight_ends_trick": True,
    "jack_back": True,
    "accumulation_burns": True,
    "out_ends_trick": True,
    "after_out_lead": "last_in_trick",
    "clubs_three_opens": "every_round",
}
CONFIGS = [
    ("equal_rank=allow", Rules().with_options(equal_rank="allow")),
    ("eight_ends_trick", Rules().with_options(eight_ends_trick=True)),
    ("jack_back", Rules().with_options(jack_back=True)),
    ("jack_back+revolution", Rules().with_options(jack_back=True, revolution=True)),
    ("accumulation_burns+skip", preset("regles-jeu").with_options(accumulation_burns=True)),
    ("accumulation_burns+threes", Rules().with_options(accumulation_burns=True,
                                                       transparent_threes=True)),
    ("out_ends_trick", Rules().with_options(out_ends_trick=True)),
    ("last_in_trick", preset("french").with_options(after_out_lead="last_in_trick")),
    ("clubs=first_round", Rules().with_options(clubs_three_opens="first_round")),
    ("clubs=every_round", preset("scum").with_options(clubs_three_opens="every_round")),
    ("catalogue2", preset("french").with_options(equal_rank="allow", **CATALOGUE_2)),
    ("capital_falls", Rules().with_options(capital_falls=True)),
    ("five_skips", Rules().with_options(five_skips=True)),
    ("five_skips+french", preset("french").with_options(five_skips=True)),
    ("capital_falls+twos", preset("french").with_options(capital_falls=True)),
    ("seven_passes", Rules().with_options(seven_passes=True)),
    ("ten_discards", Rules().with_options(ten_discards=True)),
    ("sevens+tens+capital", preset("french").with_options(seven_passes=True, ten_discards=True,
                                                          capital_falls=True)),
    ("suit_lock", Rules().with_options(suit_lock="suits")),
    ("spade_three_return", Rules().with_options(jokers=1, spade_three_return=True)),
    ("suits+threes+clubs", preset("french").with_options(
        jokers=2, suit_lock="suits", spade_three_return=True, transparent_threes=True,
        clubs_three_opens="every_round")),
    ("clubs=every_round+diamonds", preset("scum").with_options(
        clubs_three_opens="every_round", opening_three="diamonds")),
    ("uecda", preset("uecda")),
    ("sequences", Rules().with_options(jokers=1, sequences="above_highest")),
    ("sequences=above_lowest+lock+turns", preset("scum").with_options(
        jokers=2, sequences="above_lowest", suit_lock="suits", sequence_revolution=4,
        revolution=True, eight_ends_trick=True, no_finish_on_two=True)),
    ("sequences+plain_eights+jacks", preset("french").with_options(
        jokers=1, sequences="above_highest", sequence_revolution=5, eight_ends_trick=True,
        eights_in_sequences="plain", jack_back=True, spade_three_return=True,
        accumulation_burns=True)),
    (
        "everything",
        Rules().with_options(
            jokers=2, equal_rank="skip", larger_sets="any", transparent_threes=True,
            two_ends_trick=True, quad_burns=True, revolution=True, passing="out_of_trick",
            no_finish_on_two=True, dealer="rotate", reseat=True, opener="left_of_dealer",
            exchange=(3, 2, 1), points={"top": [3, 2, 1], "bottom": [-1]}, target=9,
            capital_falls=True, five_skips=True, seven_passes=True, ten_discards=True,
            suit_lock="suits", spade_three_return=True, sequences="above_highest",
            sequence_revolution=5, **CATALOGUE_2,
        ),
    ),
]  # fmt: skip


@pytest.mark.parametrize(("label", "rules"), CONFIGS, ids=[c[0] for c in CONFIGS])
def test_kernel_replays_reference_move_for_move(label, rules):
    twin.test_kernel_replays_reference_move_for_move(label, rules)


@pytest.mark.parametrize(("label", "rules"), CONFIGS, ids=[c[0] for c in CONFIGS])
def test_kernel_deals_and_leads_like_the_reference(label, rules):
    """The rounds table's ``dealt`` and ``led`` columns come from these two slots."""
    for players in (3, 4, 6, 8):
        r = rules.with_options(players=players)
        for match in range(8):
            names = twin.seat_strategies(players, match)
            job = KernelJob.build(r, names, 21, None if r.target else 4, 60)
            rows, _ = trace_match(job, match)
            record = play_match(
                r, [registry.make(s, r) for s in names], 21, match, rounds=4, max_rounds=60
            )
            where = f"{label}, {players} players, match {match}"
            assert rows[:, OUT_DEALER].tolist() == [rr.dealer for rr in record.rounds], where
            assert rows[:, OUT_LEADER].tolist() == [rr.leader for rr in record.rounds], where
            if r.clubs_three_opens == "every_round":
                assert [rr.leader for rr in record.rounds] == [rr.club for rr in record.rounds]
