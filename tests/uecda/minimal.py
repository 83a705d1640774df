"""A UECda client written from the protocol's documentation alone (docs/uecda.md, "The
protocol"), not from simulator/uecda: to check that our server does not lean on our own
client's habits. It imports nothing of the project.

It plays legal moves of the simplest kind: it leads its weakest single card (the joker
alone when nothing else is left), beats a single with its weakest stronger single (of the
locked suit under a lock; the 3 of spades on a lone joker) and passes on anything else;
it gives back its weakest cards. ``fault`` makes it misbehave once a game, for the tests
of the server's faults: ``"illegal"`` (a card it does not hold), ``"garbage"`` (480 bytes
that are not a table), ``"silent"`` (no answer, from game ``at``), ``"leave"`` (it closes
the connection at its turn, from game ``at``).
"""

from __future__ import annotations

import asyncio
import struct

CELLS = struct.Struct(">120I")
WORD = struct.Struct(">I")


def pack(table: list[list[int]]) -> bytes:
    return CELLS.pack(*(v for row in table for v in row))


def unpack(data: bytes) -> list[list[int]]:
    flat = CELLS.unpack(data)
    return [list(flat[15 * r : 15 * r + 15]) for r in range(8)]


def zeros() -> list[list[int]]:
    return [[0] * 15 for _ in range(8)]


class Minimal:
    """One client; ``rejected`` counts the 8s it was answered."""

    def __init__(self, name: str = "minimal", fault: str = "", at: int = 1) -> None:
        self.name, self.fault, self.at = name, fault, at
        self.rejected = self.games = 0
        self.stage = zeros()

    async def run(self, port: int) -> int:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        profile = zeros()
        profile[0][0] = 20070
        for j, ch in enumerate(self.name.encode()[:14]):
            profile[1][j] = ch
        writer.write(pack(profile))
        WORD.unpack(await reader.readexactly(4))  # my player number

        async def table() -> list[list[int]]:
            return unpack(await reader.readexactly(480))

        async def word() -> int:
            return WORD.unpack(await reader.readexactly(4))[0]

        try:
            while True:
                self.games += 1
                first = await table()
                if first[5][0] == 1 and first[5][1] > 0:
                    writer.write(pack(self.give_back(first, first[5][1])))
                faulted = False
                while True:
                    mine = await table()
                    if mine[5][4]:
                        self.stage = zeros()
                    if mine[5][2]:
                        if self.fault in ("silent", "leave") and self.games >= self.at:
                            if self.fault == "leave":
                                writer.close()
                                return self.games
                            await reader.read()  # silent until the server hangs up
                            return self.games
                        if self.fault in ("illegal", "garbage") and not faulted:
                            faulted = True
                            writer.write(self.bad(mine))
                        else:
                            writer.write(pack(self.choose(mine)))
                        if await word() == 8:
                            self.rejected += 1
                        following = await table()
                        while following[5][2]:  # asked again
                            writer.write(pack(self.choose(following)))
                            if await word() == 8:
                                self.rejected += 1
                            following = await table()
                        stage = following
                    else:
                        stage = await table()
                    self.stage = stage
                    code = await word()
                    if code == 2:
                        return self.games
                    if code == 1:
                        break
        finally:
            writer.close()

    def bad(self, mine: list[list[int]]) -> bytes:
        if self.fault == "garbage":
            return b"\xff" * 480
        play = zeros()
        row, col = next((r, c) for r in range(4) for c in range(1, 14) if not mine[r][c])
        play[row][col] = 1  # a card of another player
        return pack(play)

    @staticmethod
    def cards(t: list[list[int]]) -> list[tuple[int, int]]:
        return [(r, c) for r in range(4) for c in range(1, 14) if t[r][c] == 1]

    def give_back(self, t: list[list[int]], k: int) -> list[list[int]]:
        out = zeros()
        for r, c in sorted(self.cards(t), key=lambda rc: rc[1])[:k]:
            out[r][c] = 1
        return out

    def choose(self, t: list[list[int]]) -> list[list[int]]:
        """A legal play, or the pass (all zeros)."""
        out = zeros()
        reverse = t[5][6] == 1

        def strength(col: int) -> int:
            return 14 - col if reverse else col

        mine = self.cards(t)
        joker = any(t[r][c] == 2 for r in range(5) for c in range(15))
        if t[5][4]:  # an empty trick: I lead
            if mine:
                r, c = min(mine, key=lambda rc: strength(rc[1]))
                out[r][c] = 1
            elif joker:
                out[0][14] = 2
            return out
        top = [(r, c, self.stage[r][c]) for r in range(5) for c in range(15) if self.stage[r][c]]
        if len(top) != 1:
            return out  # sets and sequences: pass
        r0, c0, value = top[0]
        if value == 2:  # the lone joker: only the 3 of spades beats it
            if (0, 1) in mine:
                out[0][1] = 1
            return out
        better = [
            (r, c) for r, c in mine if strength(c) > strength(c0) and (not t[5][7] or r == r0)
        ]
        if better:
            r, c = min(better, key=lambda rc: strength(rc[1]))
            out[r][c] = 1
        return out
