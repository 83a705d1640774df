"""The UECda protocol, version 20070: every message an 8 × 15 table of 32-bit big-endian
integers (480 bytes), or one such integer, and how a table reads as our cards and moves.

Read from the tournament's reference server ``tndhm`` (the copy kept with FujiGokoro,
``YuriCat/FujiGokoroUECda``: ``src/server/server.cc``, ``external.hpp``,
``tn_protocol.hpp``, and the client's ``src/UECda.h``); docs/uecda.md lays it out.

* **Cards** (rows 0–4, columns 0–14). Rows 0–3 are the suits spades, hearts, diamonds,
  clubs — our suit ``s`` (0..3: clubs … spades) is row ``3 − s`` — and columns 1–13 the
  ranks 3 … 2 (our rank ``r`` is column ``r + 1``); a 1 is a card. The joker is a 2: in a
  hand at row 4, column 1; in a play, in the cell of the card it stands for (a sequence),
  or anywhere alone (the lone joker: we write it at row 0, column 14, or column 0 under a
  revolution, as FujiGokoro does).
* **Status** (row 5): 0 the exchange message, 1 the cards to give back in it, 2 whether
  it is this client's turn, 3 the player whose turn it is, 4 whether the trick is empty,
  5 the 11-back, 6 the revolution, 7 the suit lock.
* **Players** (row 6): columns 0–4 each player's number of cards, 5–9 each player's class
  (0 the daifugō … 4 the daihinmin; all 0 in a game that begins a block of classes),
  10–14 the player at each seat, in the order of play.
* **Answers**: the server answers a play with :data:`ACCEPT` (9) or :data:`REJECT` (8),
  and ends every move with :data:`GAME_ON` (0), :data:`GAME_OVER` (1) or
  :data:`ALL_OVER` (2). A client opens with a table holding the protocol version at
  row 0, column 0 and its name (ASCII, at most 14 characters) in row 1, and is
  answered its player number.

A negative number is sent as 0 (``tn_card_write`` does the same).
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Sequence

from simulator.reference.moves import PASS, Move, Named, Run
from simulator.reference.suits import MIN_RUN
from simulator.rules.cards import JOKER, JOKER_IDS, card_rank, card_suit

VERSION = 20070
PORT = 42485
ROWS, COLS = 8, 15
TABLE_BYTES = 4 * ROWS * COLS
INT_BYTES = 4
ACCEPT, REJECT = 9, 8
GAME_ON, GAME_OVER, ALL_OVER = 0, 1, 2
NAME_CHARS = 14

CARD, STAND_IN = 1, 2  # a card; the joker
JOKER_ROW, HAND_JOKER = 4, (4, 1)  # the joker's row, and its cell in a hand
STATUS, PLAYERS = 5, 6
# the status row's columns
IN_EXCHANGE, TO_GIVE, MY_TURN, TURN, EMPTY, ELEVEN_BACK, REVERSED, LOCK = range(8)
# the players row's first columns: cards left, classes, seats
COUNTS, CLASSES, SEATS = 0, 5, 10
NO_TURN = 6  # row 5, column 3 of the exchange message: nobody's turn (tndhm writes 6)

Table = list[list[int]]
_FORMAT = struct.Struct(f">{ROWS * COLS}I")
_INT = struct.Struct(">I")


class NotATable(ValueError):
    """480 bytes whose cells are not cards (a value other than 0, 1 and 2 in rows 0–4)."""


class IllegalShape(ValueError):
    """Cards that make no combination of the rules: the message says why."""


def empty() -> Table:
    """A table of zeros."""
    return [[0] * COLS for _ in range(ROWS)]


def pack(table: Sequence[Sequence[int]]) -> bytes:
    """A table as the 480 bytes on the wire."""
    flat = [v for row in table for v in row]
    if min(flat) < 0:
        flat = [max(v, 0) for v in flat]
    return _FORMAT.pack(*flat)


def unpack(data: bytes) -> Table:
    """The table of 480 bytes."""
    flat = _FORMAT.unpack(data)
    return [list(flat[i * COLS : (i + 1) * COLS]) for i in range(ROWS)]


def pack_int(value: int) -> bytes:
    """One integer as the 4 bytes on the wire."""
    return _INT.pack(max(value, 0))


def unpack_int(data: bytes) -> int:
    """The integer of 4 bytes."""
    return _INT.unpack(data)[0]


def cell(card: int) -> tuple[int, int]:
    """The row and column of a card id (not a joker)."""
    return 3 - card % 4, card // 4 + 1


def card_at(row: int, col: int) -> int:
    """The card id of a row 0–3 and a column 1–13."""
    return 4 * (col - 1) + 3 - row


def profile(name: str) -> Table:
    """The table a client opens with: the version, and its name (at most 14 ASCII
    characters, the rest dropped)."""
    table = empty()
    table[0][0] = VERSION
    for j, ch in enumerate(name.encode("ascii", "replace")[:NAME_CHARS]):
        table[1][j] = ch
    return table


def read_profile(table: Table) -> tuple[int, str]:
    """The version and the name of a client's first table."""
    chars = []
    for value in table[1][:NAME_CHARS]:
        if value == 0:
            break
        chars.append(chr(value) if 32 <= value < 127 else "?")
    return table[0][0], "".join(chars)


def hand_table(cards: Iterable[int]) -> Table:
    """The card rows of a hand: a 1 per card, the joker at row 4, column 1."""
    table = empty()
    for card in cards:
        if card in JOKER_IDS:
            table[HAND_JOKER[0]][HAND_JOKER[1]] = STAND_IN
        else:
            row, col = cell(card)
            table[row][col] = CARD
    return table


def check_cells(table: Table) -> None:
    """Raise :class:`NotATable` unless every cell of rows 0–4 is 0, 1 or 2."""
    for row in table[:STATUS]:
        for value in row:
            if value not in (0, CARD, STAND_IN):
                raise NotATable(f"a cell holds {value} (allowed: 0, 1 and 2)")


def hand_cards(table: Table) -> list[int]:
    """The card ids of a hand (or of cards given back): each 1 of rows 0–3, columns 1–13;
    a 2 anywhere is the joker."""
    check_cells(table)
    cards = []
    for row in range(JOKER_ROW + 1):
        for col in range(COLS):
            value = table[row][col]
            if value == STAND_IN:
                cards.append(JOKER_IDS[0])
            elif value == CARD:
                if row == JOKER_ROW or not 1 <= col <= 13:
                    raise IllegalShape(f"a card at row {row}, column {col} is no card")
                cards.append(card_at(row, col))
    return sorted(cards)


def play_table(move: Move | Run, cards: Sequence[int], reversed_order: bool = False) -> Table:
    """The table of a move laying ``cards`` (card ids, jokers too; a sequence's in rank
    order, each joker in its place): a pass is all zeros; the lone joker sits at row 0,
    column 14 (column 0 under a revolution)."""
    table = empty()
    if move.is_pass:
        return table
    if isinstance(move, Run):
        for rank, card in zip(range(move.low, move.high + 1), cards, strict=True):
            row, col = 3 - move.suit, rank + 1
            table[row][col] = STAND_IN if card in JOKER_IDS else CARD
        return table
    if move.rank == JOKER:
        table[0][0 if reversed_order else COLS - 1] = STAND_IN
        return table
    for card in cards:
        row, col = cell(card)
        table[row][col] = CARD
    return table


def read_play(table: Table) -> Move | Run | Named:
    """A client's play as our move: the pass, the lone joker, a set of one rank naming
    its cards, or a sequence of one suit naming its cards but the jokers. Raises
    :class:`NotATable` for cells that are no cards and :class:`IllegalShape` for cards
    that make no combination of the ``uecda`` preset (a joker in a set among them: the
    preset plays the joker alone or in sequences, docs/rules.md)."""
    check_cells(table)
    ones = [(r, c) for r in range(JOKER_ROW + 1) for c in range(COLS) if table[r][c] == CARD]
    twos = [(r, c) for r in range(JOKER_ROW + 1) for c in range(COLS) if table[r][c] == STAND_IN]
    if not ones and not twos:
        return PASS
    if len(twos) > 1:
        raise IllegalShape(f"{len(twos)} jokers (the deck holds one)")
    for r, c in ones:
        if r == JOKER_ROW or not 1 <= c <= 13:
            raise IllegalShape(f"a card at row {r}, column {c} is no card")
    if not ones:
        return Move(JOKER, 1)
    named = tuple(sorted(card_at(r, c) for r, c in ones))
    rows = {r for r, _ in ones + twos}
    cols = sorted(c for _, c in ones + twos)
    if len(rows) == 1 and len(cols) >= 2 and len(set(cols)) == len(cols):
        if cols != list(range(cols[0], cols[0] + len(cols))):
            raise IllegalShape("cards of one suit that do not follow one another")
        if len(cols) < MIN_RUN:
            raise IllegalShape(f"a sequence of {len(cols)} cards (at least {MIN_RUN})")
        if not 1 <= cols[0] <= cols[-1] <= 13:
            raise IllegalShape("a joker beyond the 3 or the 2 of a sequence")
        suit = card_suit(named[0])
        assert suit is not None
        return Named(Run(cols[0] - 1, len(cols), suit), named)
    if len({c for _, c in ones}) > 1:
        raise IllegalShape("cards of several ranks that are no sequence")
    if twos:
        raise IllegalShape(
            "a joker in a set (the uecda preset plays the joker alone or in sequences)"
        )
    return Named(Move(card_rank(named[0]), len(named)), named)


def laid_cards(table: Table) -> list[int]:
    """The card ids on a table (a stage): each 1, and a joker per 2."""
    check_cells(table)
    cards = []
    for r in range(JOKER_ROW + 1):
        for c in range(COLS):
            if table[r][c] == STAND_IN:
                cards.append(JOKER_IDS[0])
            elif table[r][c] == CARD and r < JOKER_ROW and 1 <= c <= 13:
                cards.append(card_at(r, c))
    return cards


def same_cards(a: Table, b: Table) -> bool:
    """Whether two tables show the same cards (rows 0–4)."""
    return a[:STATUS] == b[:STATUS]
