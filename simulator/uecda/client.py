"""``president uecda play``: any strategy of ours as a UECda client (protocol 20070) on
any UECda server, on asyncio; ``count`` clients share one event loop.

A client follows the order of the messages of :mod:`simulator.uecda.server` (tndhm's):
its profile (the strategy's name) and its player number; per game the hand of the
exchange, and the cards it gives back when asked; per move its hand and the state of
play, its play when its turn is flagged and the server's 9 or 8, then the cards on the
table and 0, 1 or 2. After an 8 a server may ask again (its hand with the turn flag set):
the client then answers the pass (a leader: his first legal play). It writes nothing: a
server that goes away ends it with one line and exit code 2.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable
from dataclasses import dataclass

from simulator.errors import PresidentError
from simulator.reference.match import deal_cards
from simulator.reference.rng import Stream
from simulator.rules.cards import card_name
from simulator.rules.options import Rules
from simulator.uecda import protocol as P
from simulator.uecda.mirror import Mirror, give_back_table
from strategies.adapter import KernelStrategy
from strategies.registry import SEES_EVERY_HAND, get


class ServerGone(PresidentError):
    """The server closed the connection, or never answered: the message says which."""


class NotAClient(PresidentError):
    """A strategy that cannot sit at a UECda table: the message says why."""


def client_strategy(name: str, rules: Rules) -> object:
    """The strategy ``name`` as a client plays it: its plain-Python player, or for a
    strategy that plays in the kernel only (``champion``, ``montecarlo``) the kernel's
    own function through :class:`~strategies.adapter.KernelStrategy`, which knows of the
    exchange nothing beyond its own hand (the kernel also tells it what the exchange
    showed). ``clairvoyant`` is refused: it reads every hand, which a client never sees."""
    spec = get(name, rules)
    if spec.make_python is not None:
        return spec.make()
    if spec.kernel_id in SEES_EVERY_HAND:
        raise NotAClient(
            f"strategy {spec.name!r} reads every player's hand, and a UECda server shows a "
            "client only its own: it cannot play as a client"
        )
    return KernelStrategy(spec.label, spec.kernel_id, spec.kernel_vector)


def warm_up(strategy: object, rules: Rules, seed: int = 0) -> None:
    """One decision of ``strategy`` on a dealt hand, before it joins: a kernel strategy
    compiles then (a minute or two on a cold cache, longer than a server waits for a
    play), not at its first turn."""
    hands, _ = deal_cards(rules, Stream.of(seed, 0, 1), 0)
    table = P.hand_table(hands[0])
    n = rules.players
    table[P.STATUS][P.MY_TURN] = table[P.STATUS][P.EMPTY] = 1
    for p in range(n):
        table[P.PLAYERS][P.COUNTS + p] = len(hands[p])
        table[P.PLAYERS][P.SEATS + p] = p
    Mirror(rules, 0).answer(table, strategy, Stream.of(seed, 0, 2))


@dataclass
class ClientOptions:
    """What ``president uecda play`` is asked."""

    strategy: str
    rules: Rules
    host: str = "127.0.0.1"
    port: int = P.PORT
    count: int = 1
    seed: int = 0
    name: str = ""


class Connection:
    """The client's side of the socket: whole tables and integers, or :class:`ServerGone`.

    Each read acknowledges at once (``TCP_QUICKACK``, where the system has it): tndhm
    sends its small messages without ``TCP_NODELAY``, so a client that delays its
    acknowledgements holds each of the server's next messages up to 40 ms — 300 games
    took 6 minutes on tndhm without it, 30 games 2 seconds with it."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, where: str):
        self.reader, self.writer, self.where = reader, writer, where
        self.game = 0
        sock = writer.get_extra_info("socket")
        quick = getattr(socket, "TCP_QUICKACK", None)  # Linux only
        self.quickack = (lambda: sock.setsockopt(socket.IPPROTO_TCP, quick, 1)) if quick else None
        self.rejected: list[str] = []  # our plays the server refused, in words

    async def table(self) -> P.Table:
        return P.unpack(await self._read(P.TABLE_BYTES))

    async def integer(self) -> int:
        return P.unpack_int(await self._read(P.INT_BYTES))

    async def _read(self, size: int) -> bytes:
        try:
            data = await self.reader.readexactly(size)
            if self.quickack is not None:
                self.quickack()
            return data
        except (asyncio.IncompleteReadError, ConnectionError):
            when = f"in game {self.game}" if self.game else "before the first game"
            raise ServerGone(f"the server at {self.where} closed the connection {when}") from None

    def send(self, table: P.Table) -> None:
        self.writer.write(P.pack(table))


async def connect(host: str, port: int) -> Connection:
    where = f"{host}:{port}"
    try:
        reader, writer = await asyncio.open_connection(host, port)
    except OSError as exc:
        raise ServerGone(f"no UECda server at {where}: {exc.strerror or exc}") from None
    return Connection(reader, writer, where)


async def play_one(options: ClientOptions, index: int, rejected: list[str] | None = None) -> int:
    """One client from its profile to the server's last word: the games it played
    (``rejected`` is told of each play the server refused)."""
    strategy = client_strategy(options.strategy, options.rules)
    name = options.name or options.strategy
    conn = await connect(options.host, options.port)
    conn.send(P.profile(name))
    player = await conn.integer()
    rng = Stream.of(options.seed, index, 0)
    try:
        while True:
            conn.game += 1
            if await play_game(conn, Mirror(options.rules, player), strategy, rng):
                return conn.game
    finally:
        if rejected is not None:
            rejected += conn.rejected
        conn.writer.close()


async def play_game(conn: Connection, mirror: Mirror, strategy: object, rng: Stream) -> bool:
    """One game; whether it was the tournament's last."""
    first = await conn.table()
    if first[P.STATUS][P.IN_EXCHANGE] and first[P.STATUS][P.TO_GIVE] > 0:
        conn.send(give_back_table(first, strategy, rng))
    while True:
        table = await conn.table()
        mirror.on_turn_table(table)
        if table[P.STATUS][P.MY_TURN]:
            sent = mirror.answer(table, strategy, rng)
            conn.send(sent)
            await answered(conn, sent)
            table = await conn.table()
            while table[P.STATUS][P.MY_TURN]:  # rejected and asked again
                sent = mirror.answer(table, strategy, rng, plain=True)
                conn.send(sent)
                await answered(conn, sent)
                table = await conn.table()
        else:
            table = await conn.table()
        mirror.on_stage(table)
        code = await conn.integer()
        if code != P.GAME_ON:
            return code == P.ALL_OVER


async def answered(conn: Connection, sent: P.Table) -> None:
    """The server's 9 or 8 to a play; an 8 to anything but a pass (which some servers
    answer 8: docs/uecda.md) is a rule our engine and the server read apart, kept."""
    if await conn.integer() == P.REJECT and sent != P.empty():
        cards = " ".join(card_name(c) for c in P.laid_cards(sent))
        conn.rejected.append(f"game {conn.game}: {cards}")


async def play(options: ClientOptions, log: Callable[[str], None]) -> list[int]:
    """``count`` clients, connected one after the other (so they are numbered in order):
    the games each played."""
    warm_up(client_strategy(options.strategy, options.rules), options.rules)
    tasks = []
    rejected: list[str] = []
    for index in range(options.count):
        tasks.append(asyncio.create_task(play_one(options, index, rejected)))
        await asyncio.sleep(0.01)  # the server numbers the clients as they connect
    try:
        games = await asyncio.gather(*tasks)
    finally:
        for task in tasks:
            task.cancel()
    for line in rejected:
        log(f"rejected by the server: {line}")
    log(f"{options.count} client{'s' if options.count > 1 else ''} of {options.strategy}: "
        f"{games[0]} games, {len(rejected)} plays rejected")  # fmt: skip
    return list(games)
