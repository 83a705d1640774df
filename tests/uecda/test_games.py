"""The games of the UECda server without the network (simulator/uecda/games.py): the
tables each player is sent, the exchange card by card, the 3 of diamonds' lead, the seats
(docs/uecda.md, "The protocol", "Seats, classes and the run folder")."""

from __future__ import annotations

from simulator.rules.presets import preset
from simulator.uecda import protocol as P
from simulator.uecda.games import SEAT_CYCLE, draw_seats, new_game

RULES = preset("uecda")
THREE_D = 1
SEATING = [2, 0, 4, 1, 3]
PLACES = [3, 1, 5, 2, 4]  # player 1 the daifugo, 3 the fugo, 4 the hinmin, 2 the daihinmin


def test_a_block_s_first_game_has_no_exchange_and_no_classes():
    game, shown = new_game(RULES, 0, 0, SEATING, [])
    assert sum(len(c) for c in game.cards) == 53
    for p in range(5):
        table = game.exchange_table(p, shown[p])
        assert table[5][P.IN_EXCHANGE] == 1 and table[5][P.TO_GIVE] == 0
        assert table[6][P.CLASSES : P.CLASSES + 5] == [0] * 5
        assert table[6][P.SEATS : P.SEATS + 5] == SEATING
        assert P.hand_cards(table) == sorted(game.cards[p])


def test_the_exchange_tables_and_the_cards_given_back():
    game, shown = new_game(RULES, 0, 1, SEATING, PLACES)
    dealt = [sum(h) for h in game.dealt]
    tables = [game.exchange_table(p, shown[p]) for p in range(5)]
    assert [t[5][P.TO_GIVE] for t in tables] == [0, 2, 0, 1, 0]
    assert tables[0][6][P.CLASSES : P.CLASSES + 5] == [2, 0, 4, 1, 3]
    # the poor are shown their hands as dealt, the rich theirs with the gift in it
    assert len(P.hand_cards(tables[2])) == dealt[2]
    assert len(P.hand_cards(tables[1])) == dealt[1] + 2
    chosen = sorted(game.cards[1])[:2]
    assert game.give_back(1, chosen)
    assert set(chosen) <= game.cards[2]
    assert not game.give_back(3, [99])  # no card of his: his best card goes
    assert len(game.cards[3]) == dealt[3] and len(game.cards[4]) == dealt[4]


def test_the_three_of_diamonds_leads_and_only_the_mover_is_flagged():
    game, _ = new_game(RULES, 0, 0, SEATING, [])
    game.begin()
    assert THREE_D in game.cards[game.turn_player]
    flags = [game.turn_table(p)[5][P.MY_TURN] for p in range(5)]
    assert flags == [int(p == game.turn_player) for p in range(5)]
    table = game.turn_table(0)
    assert table[5][P.TURN] == game.turn_player and table[5][P.EMPTY] == 1


def test_seats_are_drawn_on_a_stream_of_their_own():
    assert sorted(draw_seats(0, 0, 5)) == list(range(5))
    assert draw_seats(0, 0, 5) == draw_seats(0, 0, 5)
    assert len({tuple(draw_seats(0, g, 5)) for g in range(0, 30, SEAT_CYCLE)}) > 1
