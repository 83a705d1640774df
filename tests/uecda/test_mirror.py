"""What our client makes of a UECda server's tables (simulator/uecda/mirror.py), with
tables as tndhm sends them, its habits included: the owner of the top is asked again
when every other player has passed (docs/uecda.md, "Where our server differs")."""

from __future__ import annotations

from simulator.reference.moves import Run
from simulator.reference.rng import Stream
from simulator.rules.presets import preset
from simulator.uecda import protocol as P
from simulator.uecda.mirror import Mirror, give_back_table, stage_top
from strategies.registry import make

RULES = preset("uecda")
FIVE_S, SEVEN_C, NINE_H, SIX_S, JOKER = 11, 16, 26, 15, 52


def hand(cards: list[int], turn: int, mine: bool, empty: bool, lock: bool = False) -> P.Table:
    """A hand table of player 0: 5 players seated 0…4, 10 cards each but his."""
    table = P.hand_table(cards)
    table[5][P.MY_TURN], table[5][P.TURN] = int(mine), turn
    table[5][P.EMPTY], table[5][P.LOCK] = int(empty), int(lock)
    for p in range(5):
        table[6][P.COUNTS + p] = len(cards) if p == 0 else 10
        table[6][P.SEATS + p] = p
    return table


def stage(cards: list[int], mover: int, lock: bool = False) -> P.Table:
    table = P.hand_table([])
    for card in cards:
        row, col = P.cell(card)
        table[row][col] = 1
    table[5][P.TURN], table[5][P.LOCK] = mover, int(lock)
    return table


def test_the_owner_asked_again_beats_his_own_card_or_passes():
    mirror = Mirror(RULES, 0)
    lowest = make("lowest", RULES)
    mirror.on_turn_table(hand([FIVE_S, SEVEN_C, NINE_H], 0, True, True))
    mirror.on_stage(stage([FIVE_S], 0))
    for other in range(1, 5):  # everyone else passes: the same cards on the table
        mirror.on_turn_table(hand([SEVEN_C, NINE_H], other, False, False))
        mirror.on_stage(stage([FIVE_S], other))
    assert mirror.passed == {1, 2, 3, 4}
    again = hand([SEVEN_C, NINE_H], 0, True, False)
    assert P.read_play(mirror.answer(again, lowest, Stream(0))).cards == (SEVEN_C,)


def test_a_lock_is_followed_and_the_lone_joker_is_written_at_column_14():
    mirror = Mirror(RULES, 0)
    lowest = make("lowest", RULES)
    mirror.on_turn_table(hand([SEVEN_C, NINE_H, JOKER], 1, False, True))
    mirror.on_stage(stage([FIVE_S], 1))
    mirror.on_turn_table(hand([SEVEN_C, NINE_H, JOKER], 2, False, False))
    mirror.on_stage(stage([SIX_S], 2, lock=True))  # two spades: locked to spades
    assert mirror.lock == 1 << 3
    mine = hand([SEVEN_C, NINE_H, JOKER], 0, True, False, lock=True)
    played = mirror.answer(mine, lowest, Stream(0))
    assert played == P.play_table(P.Move(13, 1), [JOKER])  # only the joker may answer
    assert played[0][14] == 2


def test_the_cards_given_back_are_the_strategys_lowest():
    table = hand([FIVE_S, SEVEN_C, NINE_H], 6, False, False)
    table[5][P.IN_EXCHANGE], table[5][P.TO_GIVE] = 1, 2
    given = give_back_table(table, make("lowest", RULES), Stream(0))
    assert P.hand_cards(given) == [FIVE_S, SEVEN_C]


def test_plays_another_server_accepts_and_ours_refuses_are_read_as_tops():
    """tndhm lets the joker stand in a set, and a sequence run past the 2."""
    pair = P.empty()
    pair[0][5], pair[2][5] = 1, 2  # the 7 of spades and the joker as a 7
    assert stage_top(pair) == P.Move(4, 2)
    past_two = P.empty()
    past_two[1][12], past_two[1][13], past_two[1][14] = 1, 1, 2  # A 2 and the joker above
    assert stage_top(past_two) == Run(10, 3, 2)  # K A 2 of hearts: nothing passes it


def test_the_cards_out_there_are_every_card_not_held_nor_laid():
    """A search player deals the cards it cannot see with their suits: the client knows
    them as every card of the deck it neither holds nor saw laid."""
    mirror = Mirror(RULES, 0)
    mirror.on_turn_table(hand([SEVEN_C, NINE_H], 1, False, True))
    mirror.on_stage(stage([FIVE_S], 1))
    table = hand([SEVEN_C, NINE_H], 0, True, False)
    for p, count in enumerate([2, 12, 12, 13, 13]):  # 50 cards held, the 5 of spades laid
        table[6][P.COUNTS + p] = count
    rnd, seat = mirror.position(table)
    unseen = set(rnd.observation(seat).unseen)
    assert unseen == set(range(53)) - {SEVEN_C, NINE_H, FIVE_S}
