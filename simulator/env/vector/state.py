"""The state of a vector environment's tables: what each slot of its arrays means.

A table is a row of each array of the tuple ``T`` (the kernel's workspace of
:mod:`simulator.matchloop.matches`, a row each), with ``M``'s row holding what the
kernel's match loop keeps in its locals, so that a match can stop at the learner's
decision and go on at the next step (:mod:`simulator.env.vector.tables`).
"""

from __future__ import annotations

import numpy as np

from simulator.env.encoding import MAX_RUN, RUN_SHAPES

LEARNER = -1  # the strategy id of the learner's seat

# The phases of a table: where its match stopped.
DEAL = 0  # a round is to be dealt (its exchange, if any, follows)
EXCHANGE = 1  # the exchange goes on from pair M_PAIR
GIVE = 2  # the learner gives back cards in the exchange (pair M_PAIR)
HAND_OVER = 3  # the learner hands cards over after his play of 7s or 10s (M_PLAY_R, M_PLAY_C)
PLAY = 4  # a round is under way, another seat to move
MOVE = 5  # the learner is to move
OVER = 6  # the match is over: the next step starts the table's next match

# The slots of a table's row of M (int64), what the match loop keeps in its locals.
M_MATCH = 0  # the match played
M_ROUND = 1  # the round (0 first)
M_PHASE = 2
M_DEALER = 3  # the dealer's position this round
M_DEALER_PLAYER = 4  # the dealer (a player) this round
M_LEADER = 5  # the player who led the round
M_CLUB = 6  # the position holding the 3 that opens (-1: not followed)
M_PAIR = 7  # the exchange's pair under way (1 the President's)
M_TO_GIVE = 8  # the cards the learner gives in all (GIVE, HAND_OVER)
M_GIVEN = 9  # the cards he has given so far: give[:M_GIVEN]
M_PLAY_R = 10  # the play of 7s or 10s the learner's gift follows (HAND_OVER)
M_PLAY_C = 11
M_RUN = 12  # the trick's latest run of one rank (the observation's `run`, no table rule on)
M_REACHED = 13  # the target was reached
M_END = 14  # how the match ended: 0 not yet, 1 over, 2 cut short (a target not settled)
M_QUEUED = 15  # cards of a built-in's give-back queued for the learner's next steps
M_SIZE = 16

# The settings of a vector environment, an int64 array C.
C_LEARNER = 0  # the learner's player (the seat he holds when a match starts)
C_ROUNDS = 1  # the longest match, in rounds
C_TABLES = 2  # the tables: a table plays matches m, m + tables, m + 2 * tables …
C_POINTS = 3  # 1: rewards are the rules' points; 0: by places
C_CUT = 4  # 1: a match cut short under a target is truncated (whole-match episodes)
C_SIZE = 5

# The arrays of a vector environment, a tuple T: one row per table (the kernel's
# workspace of simulator/matchloop/matches.py, a row each), then what all tables share.
(T_H, T_S, T_M, T_PLAYED, T_PLACES, T_ROLES, T_SEATING, T_POS_OF, T_BY_PLACE, T_PREV, T_TOTALS,
 T_QUEUE, T_GIVE, T_RS, T_RS_DEAL, T_DECK, T_SLOT_POS, T_BASE, T_DRAWS, T_SID_POS,
 T_PARAMS_POS) = range(21)  # fmt: skip
T_KEY = 21  # uint64[1]: the run's key (seed_key of the seed)
T_SID_PL = 22  # strategy id by player (LEARNER at the learner's)
T_PARAMS_PL = 23  # parameters by player
T_ROLE_TAB = 24  # role index by place
T_STREAMS = 25  # the seats' own streams: never used (no duplicate deals), for gift_step
T_SROW = 26  # the stream row by position: all -1, the match's one stream
T_TRACE = 27  # an empty trace: no move is traced

# The sequence actions' shapes as arrays the kernel reads (simulator.env.encoding's RUN_SHAPES):
SHAPES = np.array(RUN_SHAPES, np.int64)  # (length, lowest rank) of each shape
SHAPE_AT = np.array(  # the first shape of each length (0 below the shortest)
    [next((i for i, (n, _) in enumerate(RUN_SHAPES) if n == length), 0) for length in
     range(MAX_RUN + 1)], np.int64)  # fmt: skip
