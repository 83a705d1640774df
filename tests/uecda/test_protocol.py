"""The UECda protocol byte by byte: tables written out by hand from the protocol's
documentation (docs/uecda.md, "The protocol"; tndhm's ``tn_protocol.hpp``: 8 × 15 cells of
32-bit big-endian integers, rows 0–3 spades, hearts, diamonds, clubs, columns 1–13 the
ranks 3 … 2, the joker a 2), read and written by simulator/uecda/protocol.py."""

from __future__ import annotations

import struct

import pytest

from simulator.reference.moves import PASS, Move, Named, Run
from simulator.uecda import protocol as P

# card ids: 4 × rank + suit, suits 0..3 = clubs, diamonds, hearts, spades
THREE_D, SEVEN_H, SEVEN_S, FIVE_H, SIX_H, JOKER = 1, 18, 19, 10, 14, 52


def offset(row: int, col: int) -> int:
    """Where a cell's 4 bytes start: row after row, 15 cells a row."""
    return 4 * (15 * row + col)


def cell_bytes(data: bytes, row: int, col: int) -> bytes:
    return data[offset(row, col) : offset(row, col) + 4]


def test_a_table_is_480_big_endian_bytes():
    table = P.empty()
    table[0][0] = 20070  # 0x00004E66
    table[7][14] = 1
    data = P.pack(table)
    assert len(data) == 480
    assert data[:4] == b"\x00\x00\x4e\x66"
    assert data[-4:] == b"\x00\x00\x00\x01"
    assert P.unpack(data) == table


def test_negative_numbers_are_sent_as_zero():
    table = P.empty()
    table[5][1] = -2  # tndhm writes a poor player's count to give this way
    assert cell_bytes(P.pack(table), 5, 1) == b"\x00\x00\x00\x00"
    assert P.pack_int(-1) == b"\x00\x00\x00\x00"


def test_answers_and_game_codes_are_single_integers():
    assert P.pack_int(9) == b"\x00\x00\x00\x09"  # accepted
    assert P.pack_int(8) == b"\x00\x00\x00\x08"  # rejected
    assert [P.unpack_int(P.pack_int(v)) for v in (0, 1, 2)] == [0, 1, 2]


def test_the_profile_holds_the_version_and_the_name_in_row_1():
    data = P.pack(P.profile("abc"))
    assert cell_bytes(data, 0, 0) == struct.pack(">I", 20070)
    assert [cell_bytes(data, 1, j) for j in range(4)] == [
        b"\x00\x00\x00a",
        b"\x00\x00\x00b",
        b"\x00\x00\x00c",
        b"\x00\x00\x00\x00",
    ]
    assert P.read_profile(P.unpack(data)) == (20070, "abc")
    assert P.read_profile(P.profile("a-very-long-client-name"))[1] == "a-very-long-cl"  # 14


def test_a_hand_a_1_per_card_and_the_joker_at_row_4_column_1():
    data = P.pack(P.hand_table([THREE_D, SEVEN_S, JOKER]))
    ones = [i for i in range(120) if data[4 * i : 4 * i + 4] == b"\x00\x00\x00\x01"]
    twos = [i for i in range(120) if data[4 * i : 4 * i + 4] == b"\x00\x00\x00\x02"]
    # 3 of diamonds: row 2, column 1; 7 of spades: row 0, column 5
    assert ones == [5, 15 * 2 + 1]
    assert twos == [15 * 4 + 1]
    assert P.hand_cards(P.unpack(data)) == [THREE_D, SEVEN_S, JOKER]


def hand_written(*cells: tuple[int, int, int]) -> P.Table:
    """A play as a client writes it: (row, column, value) cells, the rest zeros."""
    data = bytearray(480)
    for row, col, value in cells:
        data[offset(row, col) : offset(row, col) + 4] = struct.pack(">I", value)
    return P.unpack(bytes(data))


def test_a_pass_is_all_zeros():
    assert P.read_play(hand_written()) == PASS
    assert P.play_table(PASS, []) == P.empty()


def test_a_pair_of_sevens_names_its_suits():
    table = hand_written((1, 5, 1), (0, 5, 1))  # 7 of hearts, 7 of spades
    assert P.read_play(table) == Named(Move(4, 2), (SEVEN_H, SEVEN_S))
    assert P.play_table(Move(4, 2), [SEVEN_H, SEVEN_S]) == table


def test_a_sequence_with_the_joker_standing_in():
    table = hand_written((1, 3, 1), (1, 4, 1), (1, 5, 2))  # 5♥ 6♥ and the joker as 7♥
    assert P.read_play(table) == Named(Run(2, 3, 2), (FIVE_H, SIX_H))
    assert P.play_table(Run(2, 3, 2), [FIVE_H, SIX_H, JOKER]) == table


@pytest.mark.parametrize("cell", [(0, 14), (0, 0), (3, 7), (4, 1)])
def test_the_lone_joker_is_a_2_anywhere(cell):
    assert P.read_play(hand_written((*cell, 2))) == Move(13, 1)


def test_our_lone_joker_sits_where_fujigokoro_puts_it():
    assert P.play_table(Move(13, 1), [JOKER]) == hand_written((0, 14, 2))
    assert P.play_table(Move(13, 1), [JOKER], reversed_order=True) == hand_written((0, 0, 2))


def test_cells_that_are_no_cards_are_not_a_table():
    with pytest.raises(P.NotATable):
        P.read_play(hand_written((0, 3, 7)))
    with pytest.raises(P.NotATable):
        P.read_play(P.unpack(b"\xff" * 480))


@pytest.mark.parametrize(
    ("cells", "why"),
    [
        ([(0, 5, 1), (1, 5, 2)], "joker in a set"),
        ([(0, 3, 1), (0, 4, 1)], "at least 3"),
        ([(0, 3, 1), (0, 5, 1), (0, 6, 1)], "do not follow"),
        ([(0, 3, 1), (1, 4, 1)], "several ranks"),
        ([(0, 0, 1)], "no card"),
        ([(4, 3, 1)], "no card"),
    ],
)
def test_cards_that_make_no_combination(cells, why):
    with pytest.raises(P.IllegalShape, match=why):
        P.read_play(hand_written(*cells))


def test_status_rows_name_their_columns():
    """Row 5 and row 6 as tndhm fills them (server.cc, "convert status to table")."""
    assert (P.STATUS, P.PLAYERS) == (5, 6)
    assert (P.IN_EXCHANGE, P.TO_GIVE, P.MY_TURN, P.TURN) == (0, 1, 2, 3)
    assert (P.EMPTY, P.ELEVEN_BACK, P.REVERSED, P.LOCK) == (4, 5, 6, 7)
    assert (P.COUNTS, P.CLASSES, P.SEATS) == (0, 5, 10)
