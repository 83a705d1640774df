"""Our server and clients over localhost, the independent minimal client at the table, and
each fault a server must handle (docs/uecda.md, "Faults")."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import Awaitable, Callable
from pathlib import Path

import pandas as pd
import pytest

from simulator.rules.presets import preset
from simulator.uecda.client import ClientOptions, ServerGone, client_strategy, play_one, warm_up
from simulator.uecda.server import ServeOptions, ServeOutcome, serve
from tests.conftest import run_cli
from tests.uecda.minimal import Minimal

RULES = preset("uecda")
Client = Callable[[int], Awaitable[int]]


def ours(strategy: str = "lowest") -> list[Client]:
    return [
        lambda port, i=i: play_one(ClientOptions(strategy, RULES, "127.0.0.1", port), i)
        for i in range(5)
    ]


def tournament(
    clients: list[Client], games: int, out: Path | None, tries: int = 1, timeout: float = 5.0
) -> tuple[ServeOutcome, list[str], list[object]]:
    """Serve ``games`` games to ``clients`` (in that order) on a free port of localhost:
    the outcome, the server's log and what each client returned (or raised)."""
    lines: list[str] = []

    async def main() -> tuple[ServeOutcome, list[object]]:
        loop = asyncio.get_running_loop()
        port: asyncio.Future[int] = loop.create_future()
        options = ServeOptions(RULES, games, 0, "127.0.0.1", out, 7, tries, timeout)
        server = asyncio.create_task(serve(options, lines.append, port.set_result))
        tasks = []
        for client in clients:
            tasks.append(asyncio.create_task(client(await port)))
            await asyncio.sleep(0.02)  # they join in this order
        outcome = await server
        done = await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 10)
        return outcome, list(done)

    outcome, results = asyncio.run(main())
    return outcome, lines, results


def rows(out: Path) -> pd.DataFrame:
    return pd.read_parquet(out / "rounds.parquet")


def test_our_clients_on_our_server_write_the_run_folder_simulate_writes(tmp_path):
    out = tmp_path / "run"
    outcome, lines, results = tournament(ours(), 6, out)
    assert outcome.games == 6 and not outcome.stopped
    assert results == [6] * 5
    assert not any("rejected" in line for line in lines)
    df = rows(out)
    assert len(df) == 6 * 5
    assert sorted(df.groupby("round").place.apply(sorted).iloc[0]) == [1, 2, 3, 4, 5]
    assert set(df.points) <= {1, 2, 3, 4, 5}
    assert (df.place + df.points == 6).all()  # places scored 5 … 1
    assert df[df["round"] == 0].prev_role.eq("").all()  # a block's first game: no classes
    summary = json.loads((out / "summary.json").read_text())
    assert summary["rules"]["players"] == 5 and summary["rounds_played"] == 6
    assert summary["strategies"] == ["lowest"] * 5


def test_champion_plays_as_a_client_through_the_kernel(tmp_path):
    """A kernel-only strategy sits at the table through KernelStrategy: compiled before it
    joins (as ``president uecda play`` does), then two games with no play refused."""
    warm_up(client_strategy("champion", RULES), RULES)
    clients = ours("champion")[:2] + ours()[:3]
    outcome, lines, results = tournament(clients, 2, tmp_path / "run", timeout=120.0)
    assert outcome.games == 2 and not outcome.stopped, lines
    assert results == [2] * 5
    assert not any("rejected" in line for line in lines)
    assert rows(tmp_path / "run").strategy.value_counts().to_dict() == {
        "champion": 4, "lowest": 6,
    }  # fmt: skip


def test_the_independent_client_plays_legal_moves_only(tmp_path):
    minimal = [Minimal(f"minimal{i}") for i in range(3)]
    clients = [m.run for m in minimal] + ours()[:2]
    outcome, lines, _results = tournament(clients, 8, tmp_path / "run")
    assert outcome.games == 8 and not outcome.stopped, lines
    assert [m.rejected for m in minimal] == [0, 0, 0], lines
    assert not any("rejected" in line for line in lines)
    assert rows(tmp_path / "run").strategy.value_counts().to_dict() == {
        "minimal0": 8, "minimal1": 8, "minimal2": 8, "lowest": 16,
    }  # fmt: skip


@pytest.mark.parametrize("fault", ["illegal", "garbage"])
@pytest.mark.parametrize("tries", [1, 2])
def test_a_rejected_play_is_asked_again_then_played_as_a_pass(tmp_path, fault, tries):
    faulty = Minimal("faulty", fault)
    clients = [faulty.run, *ours()[:4]]
    outcome, lines, _ = tournament(clients, 3, tmp_path / "run", tries=tries)
    assert outcome.games == 3 and not outcome.stopped
    rejected = [line for line in lines if "play rejected" in line]
    assert faulty.rejected == len(rejected) == 3  # once a game
    assert all("player 0 (faulty)" in line for line in rejected)
    assert all(("asked again" if tries > 1 else "played as a pass") in line for line in rejected)
    if fault == "garbage":
        assert all("not a table" in line for line in rejected)
    else:  # a card of another player: the first rule it breaks is named
        assert not any("not a table" in line for line in rejected)


@pytest.mark.parametrize(("fault", "why"), [("silent", "was silent"), ("leave", "disconnected")])
def test_a_client_lost_mid_game_ends_the_tournament_keeping_finished_games(tmp_path, fault, why):
    out = tmp_path / "run"
    clients = [*ours()[:4], Minimal("goner", fault, at=3).run]
    outcome, lines, results = tournament(clients, 10, out, timeout=0.5)
    assert outcome.games == 2
    assert outcome.stopped.startswith(f"player 4 (goner) {why}") and "in game 3" in outcome.stopped
    assert any("UTC player 4 (goner)" in line and "2 finished games kept" in line for line in lines)
    assert len(rows(out)) == 2 * 5  # the finished games, the game under way dropped
    assert json.loads((out / "summary.json").read_text())["rounds_played"] == 2
    assert all(isinstance(r, ServerGone) for r in results[:4])


def test_a_client_lost_in_the_first_game_leaves_the_folder_empty(tmp_path):
    out = tmp_path / "run"
    outcome, _, _ = tournament([*ours()[:4], Minimal("goner", "leave").run], 5, out)
    assert outcome.games == 0 and "in game 1" in outcome.stopped
    assert list(out.iterdir()) == []


def test_a_client_of_another_protocol_version_is_refused_and_the_table_still_fills(tmp_path):
    async def old(port: int) -> bytes:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        profile = bytearray(480)
        profile[:4] = (20060).to_bytes(4, "big")
        writer.write(bytes(profile))
        answer = await reader.read()  # closed without a player number
        writer.close()
        return answer

    outcome, lines, results = tournament([old, *ours()], 2, None)
    assert outcome.games == 2 and results[0] == b""
    assert any("protocol 20060 (allowed: 20070)" in line for line in lines)


def test_a_port_in_use_is_one_line_and_exit_2(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run_cli(
            "uecda", "serve", "--games", "1", "--port", str(port), "--host", "127.0.0.1"
        )
    assert result.exit_code == 2
    assert result.stderr.strip() == f"error: port {port} is in use (allowed: a free port, --port P)"


def test_a_client_whose_server_goes_away_says_so_in_one_line(tmp_path):
    """A server that numbers the client, sends half a table and closes."""

    async def main() -> None:
        async def half(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await reader.readexactly(480)
            writer.write(b"\x00\x00\x00\x00" + b"\x00" * 100)
            writer.close()

        server = await asyncio.start_server(half, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        with pytest.raises(
            ServerGone, match=f"the server at 127.0.0.1:{port} closed the connection in game 1"
        ):
            await play_one(ClientOptions("lowest", RULES, "127.0.0.1", port), 0)
        server.close()

    asyncio.run(main())


def test_no_server_is_one_line_and_exit_2():
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    result = run_cli("uecda", "play", "--strategy", "lowest", "--port", str(port))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: no UECda server at 127.0.0.1:{port}")
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["play", "--strategy", "nonsense"], "unknown strategy 'nonsense'"),
        (["play", "--strategy", "clairvoyant"], "reads every player's hand"),
        (["play", "--strategy", "lowest", "--port", "70000"], "70000"),
        (["play", "--strategy", "lowest", "--count", "6"], "--count"),
        (["serve", "--games", "0"], "--games"),
        (["serve", "--games", "1", "--tries", "0"], "--tries"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, says):
    result = run_cli("uecda", *args)
    assert result.exit_code == 2
    assert says in result.stderr and len(result.stderr.strip().splitlines()) == 1
