"""``president uecda serve``: a UECda server (protocol 20070) playing the ``uecda`` preset
on our reference engine with five clients, on asyncio (one event loop, no threads).

The order of the messages is tndhm's (``src/server/server.cc`` of
``YuriCat/FujiGokoroUECda``): each client opens with its profile and is told its player
number; each game opens with every player's hand (:meth:`Game.exchange_table`), then the
daifugō and the fugō give back their cards; then, move after move, every player is sent
his hand and the state of play, the player to move answers with his play and is told
9 (accepted) or 8 (rejected), and every player is sent the cards on the table and 0 (the
game goes on), 1 (it is over) or 2 (the tournament is over).

The faults a server meets are declared here: a rejected play (an illegal one, or bytes
that are not a table) is asked again up to ``tries`` times in all — the player alone is
sent his hand again, with his turn flag set — and is then played as a pass (the first
legal play for a leader, who may not pass); tndhm's own rule, and the default, is one
try. A client silent for ``timeout`` seconds, or gone, ends the tournament: the game
under way is dropped, every finished game is kept in the run folder, and the log says
who and when.
"""

from __future__ import annotations

import asyncio
import errno
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from simulator.errors import PresidentError
from simulator.reference.match import RoundRecord
from simulator.reference.moves import Move, Named, Run
from simulator.rules.options import Rules
from simulator.uecda import protocol as P
from simulator.uecda.games import CLASS_CYCLE, SEAT_CYCLE, Game, draw_seats, new_game
from simulator.uecda.rundir import RunWriter

Log = Callable[[str], None]
TRIES = 1  # tndhm plays a rejected play as a pass at once
TIMEOUT = 60.0  # seconds a client may take to answer


class ServeError(PresidentError):
    """A server that cannot start (its port in use…): the message says why."""


class ClientGone(Exception):
    """A client that left or fell silent: ``who`` it was and ``why``."""

    def __init__(self, who: str, why: str) -> None:
        super().__init__(f"{who} {why}")
        self.who, self.why = who, why


@dataclass
class Client:
    """One connected client: player ``player``, named ``name`` in its profile."""

    player: int
    name: str
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    timeout: float
    queued: list[bytes] = field(default_factory=list)

    @property
    def who(self) -> str:
        return f"player {self.player} ({self.name})"

    def send(self, data: bytes) -> None:
        """Queued until :meth:`flush`: a move's messages to one client leave in one write."""
        self.queued.append(data)

    async def read(self, size: int = P.TABLE_BYTES) -> bytes:
        """``size`` bytes, or :class:`ClientGone` when it leaves or stays silent."""
        try:
            async with asyncio.timeout(self.timeout):
                return await self.reader.readexactly(size)
        except TimeoutError:
            raise ClientGone(self.who, f"was silent for more than {self.timeout:g} s") from None
        except (asyncio.IncompleteReadError, ConnectionError):
            raise ClientGone(self.who, "disconnected") from None

    async def flush(self) -> None:
        if self.queued:
            self.writer.write(b"".join(self.queued))
            self.queued.clear()
        try:
            await self.writer.drain()
        except ConnectionError:
            raise ClientGone(self.who, "disconnected") from None

    def close(self) -> None:
        self.writer.close()


@dataclass
class ServeOptions:
    """What ``president uecda serve`` is asked."""

    rules: Rules
    games: int
    port: int = P.PORT
    host: str = "0.0.0.0"
    out: Path | None = None
    seed: int = 0
    tries: int = TRIES
    timeout: float = TIMEOUT


@dataclass
class ServeOutcome:
    """How a tournament ended: the games played, and why it stopped short (or ``""``)."""

    games: int
    stopped: str = ""
    seconds: float = 0.0


def stamp() -> str:
    """The time of a log line, in UTC: the log says when a client joined, erred or left."""
    return time.strftime("%H:%M:%S", time.gmtime()) + " UTC"


class Tournament:
    """The server's tournament: the clients by player number, the games one by one."""

    def __init__(self, options: ServeOptions, log: Log) -> None:
        self.o, self.log = options, log
        self.n = options.rules.players
        self.clients: list[Client] = []
        self.joined: asyncio.Queue[Client] = asyncio.Queue()
        self.writer = RunWriter(
            options.out, options.rules, options.seed, options.games, CLASS_CYCLE
        )
        self.rejected = 0

    async def on_connect(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """A new connection: its profile, then its player number (or it is refused)."""
        if len(self.clients) + self.joined.qsize() >= self.n:
            writer.close()
            self.log(f"{stamp()} a sixth client was refused: the table is full")
            return
        client = Client(-1, "?", reader, writer, self.o.timeout)
        try:
            version, name = P.read_profile(P.unpack(await client.read()))
        except ClientGone as gone:
            self.log(f"{stamp()} a client left before its profile: {gone.why}")
            writer.close()
            return
        if version != P.VERSION:
            self.log(f"{stamp()} refused {name!r}: protocol {version} (allowed: {P.VERSION})")
            writer.close()
            return
        client.name = name or "client"
        await self.joined.put(client)

    async def gather(self) -> None:
        """Wait for the players; each is told his number as he joins."""
        while len(self.clients) < self.n:
            client = await self.joined.get()
            client.player = len(self.clients)
            self.clients.append(client)
            client.send(P.pack_int(client.player))
            await client.flush()
            self.log(f"{stamp()} {client.who} joined")

    async def run(self) -> ServeOutcome:
        """Every game; the run folder written block by block, and finished whatever
        stops the tournament (a client lost, an interrupt, a bug): its finished games
        are kept."""
        started = time.perf_counter()
        self.writer.open([c.name for c in self.clients])
        prev: list[int] = []
        totals = [0] * self.n
        records: list[RoundRecord] = []  # the block's finished games not yet written
        seating = list(range(self.n))
        played, stopped, match = 0, "", 0
        try:
            for g in range(self.o.games):
                match, index = divmod(g, CLASS_CYCLE)
                if index == 0:
                    prev, totals = [], [0] * self.n
                if g % SEAT_CYCLE == 0:
                    seating = draw_seats(self.o.seed, g, self.n)
                try:
                    record = await self.play(g, seating, prev, totals)
                except ClientGone as gone:
                    stopped = f"{gone.who} {gone.why} at {stamp()} in game {g + 1}"
                    self.log(f"{stamp()} {gone.who} {gone.why} in game {g + 1}: the "
                             f"tournament stops, its {played} finished games kept")  # fmt: skip
                    break
                played += 1
                records.append(record)
                prev, totals = record.places, record.totals
                if index == CLASS_CYCLE - 1:
                    self.writer.add_match(match, records)
                    records = []
        finally:
            self.writer.add_match(match, records)
            self.writer.finish()
            for client in self.clients:
                client.close()
        return ServeOutcome(played, stopped, time.perf_counter() - started)

    async def play(
        self, g: int, seating: list[int], prev: list[int], totals: list[int]
    ) -> RoundRecord:
        """Game ``g`` from the deal to the last move."""
        game, shown = new_game(self.o.rules, self.o.seed, g, seating, prev)
        for c in self.clients:
            c.send(P.pack(game.exchange_table(c.player, shown[c.player])))
        await self.flush()
        for rich, _, _ in list(game.gives):
            data = await self.clients[rich].read()
            try:
                chosen: list[int] | None = P.hand_cards(P.unpack(data))
            except (P.NotATable, P.IllegalShape):
                chosen = None
            if not game.give_back(rich, chosen):
                self.log(f"{stamp()} game {g + 1}: {self.clients[rich].who} gave back no "
                         "cards of its hand: its best cards go")  # fmt: skip
        game.begin()
        rnd = game.round
        last = g == self.o.games - 1
        while not rnd.over:
            mover = game.turn_player
            for c in self.clients:
                c.send(P.pack(game.turn_table(c.player)))
            await self.flush()
            game.apply(await self.ask(game, g, self.clients[mover]))
            stage = P.pack(game.stage_table(mover))
            code = P.GAME_ON if not rnd.over else P.ALL_OVER if last else P.GAME_OVER
            for c in self.clients:
                c.send(stage + P.pack_int(code))
        await self.flush()  # each move's last words leave with the next move's first
        return game.record(totals)

    async def ask(self, game: Game, g: int, client: Client) -> Move | Run | Named:
        """The mover's play: accepted, or asked again, then a pass (see the module)."""
        for attempt in range(1, self.o.tries + 1):
            data = await client.read()
            try:
                move = P.read_play(P.unpack(data))
                why = game.why_illegal(move)
            except P.NotATable as exc:
                why = f"bytes that are not a table: {exc}"
            except P.IllegalShape as exc:
                why = str(exc)
            if why is None:
                client.send(P.pack_int(P.ACCEPT))
                return move
            self.rejected += 1
            client.send(P.pack_int(P.REJECT))
            again = attempt < self.o.tries
            self.log(f"{stamp()} game {g + 1}: {client.who}'s play rejected ({why}); "
                     + ("asked again" if again else "played as a pass"))  # fmt: skip
            if again:
                client.send(P.pack(game.turn_table(client.player)))
            await client.flush()
        return game.fallback()

    async def flush(self) -> None:
        for c in self.clients:
            await c.flush()


async def serve(
    options: ServeOptions, log: Log, ready: Callable[[int], None] | None = None
) -> ServeOutcome:
    """Listen, gather five clients, play ``options.games`` games, write the run folder.
    ``ready(port)`` is told the port once the server listens (the port 0 asks for any)."""
    tournament = Tournament(options, log)
    try:
        server = await asyncio.start_server(tournament.on_connect, options.host, options.port)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise ServeError(
                f"port {options.port} is in use (allowed: a free port, --port P)"
            ) from None
        raise ServeError(
            f"cannot listen on {options.host}:{options.port}: {exc.strerror}"
        ) from None
    port = server.sockets[0].getsockname()[1]
    log(f"{stamp()} listening on port {port} for {tournament.n} clients, {options.games} games")
    if ready is not None:
        ready(port)
    async with server:
        await tournament.gather()
        server.close()  # no more players
        outcome = await tournament.run()
    log(f"{stamp()} {outcome.games} games in {outcome.seconds:.1f} s"
        + (f", {tournament.rejected} plays rejected" if tournament.rejected else ""))  # fmt: skip
    return outcome
