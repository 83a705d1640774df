"""Our strategies at a table of UECda programs nobody here wrote: mean place and points per
game with 95 % intervals (docs/strategies.md, "Against programs nobody here wrote").

``python benchmarks/bench_uecda_strength.py --programs DIR [--strategy NAME]… [--games N]
[--server tndhm|ours] [--out DIR]`` plays, for each ``--strategy`` (default ``champion``
and ``linear``), one tournament of ``--games`` games: one client of that strategy and four
external programs, on the contest's server ``tndhm`` (``DIR/tndhm``) or on ours
(``president uecda serve``). A tournament already begun in ``--out`` is carried on
to ``--games`` (a stopped run resumes). ``--read FILE_OR_DIR``… instead rebuilds the
table from tournaments already played (a ``tndhm`` log, or our server's run folder).

**The folder of programs.** Nothing here is fetched or built: the user builds each program
outside this project and puts in ``DIR`` one executable per program, ``NAME.sh``, that
joins a UECda server on ``127.0.0.1`` at the port given as its first argument (one
player; the script starts one per seat), and, for ``--server tndhm``, the contest's server
as ``DIR/tndhm`` (it is run as ``tndhm -g GAMES -p PORT``). The programs are seated in
the order of their names; with fewer than four, our ``--fill`` strategy (default
``rules-aware``) takes the other seats, and the table says so. The programs measured in
docs/strategies.md, and how to get them (read each licence; run them, never copy them
into the project):

* ``tndhm`` and FujiGokoro: ``git clone https://github.com/YuriCat/FujiGokoroUECda``,
  ``make out/server`` (GPL-3.0); ``DIR/tndhm`` a link to ``out/server``.
* Blauweregen (FujiGokoro as of 2016) and jn17, from the archive
  ``https://github.com/koki-hamada/Daihinmin`` (folders ``Asshole/Blauweregen``, GPL-3.0,
  ``make TARGET=default CXX=g++ preparation client``, run from its folder, which holds
  its ``param/``; ``Asshole/jn17``, the contest's sample-client terms, ``make``, run as
  ``./client -p PORT``).
* ``https://github.com/Hironsan/uecda-pyclient`` (MIT): ``python3 client.py -p PORT``.
* ``https://github.com/yagays/uecda_python`` (MIT), its client in a virtual environment
  with ``pydantic`` and ``pyyaml``: ``python -m uecda_client.main -p PORT -n NAME``.

For example ``DIR/blauweregen.sh`` is ``cd /path/to/Blauweregen && exec ./client -p "$1"``.

**The intervals.** Both servers redraw the seats every 3 games and forget the classes
every 100 (the contest's rules), so one game leans on the last through the exchange and
the classes. The games are cut into consecutive batches of ``--batch`` games (default 30:
ten seat draws), each batch's mean is one observation, and the interval is Student's
over the batch means (the batch-means method): batches long beside the few games over
which the classes carry make nearly independent means. The table also gives the
half-width with batches of 3 games (one seat draw) and of 100 (one block of classes).
"""

from __future__ import annotations

import argparse
import math
import re
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
from scipy import stats

PRESIDENT = [sys.executable, "-m", "simulator"]
PLACES = {"daihugou": 1, "fugo": 2, "heimin": 3, "himmin": 4, "daihinmin": 5}
SEATS = 5


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def read_tndhm(log: Path) -> pd.DataFrame:
    """One row per game and player from a ``tndhm`` log: its ``================ game N``
    blocks name each class's player (``daihugou   3.name``); place 1 … 5, points 5 … 1."""
    rows, game = [], 0
    for line in log.read_text(errors="replace").splitlines():
        found = re.match(r"=+ game (\d+)", line)
        if found:
            game = int(found.group(1))
            continue
        found = re.match(r"(daihugou|fugo|heimin|himmin|daihinmin)\s+(\d+)\.(\S*)", line)
        if found and game:
            place = PLACES[found.group(1)]
            rows.append((game, int(found.group(2)), found.group(3), place, 6 - place))
    df = pd.DataFrame(rows, columns=["game", "player", "name", "place", "points"])
    full = df.groupby("game").player.transform("size") == SEATS  # a game cut short: dropped
    return df[full]


def read_ours(folder: Path) -> pd.DataFrame:
    """The same from our server's run folder (a block of 100 games is a match)."""
    df = pd.read_parquet(folder / "rounds.parquet")
    game = df["match"] * 100 + df["round"] + 1
    return pd.DataFrame({"game": game, "player": df.seat, "name": df.strategy,
                         "place": df.place, "points": df.points})  # fmt: skip


def read(path: Path) -> pd.DataFrame:
    """A tndhm log, our run folder, or a folder of sessions (``tndhm.K.log``, ``run.K``:
    one tournament carried on after a program crashed), their games numbered on."""
    if (path / "rounds.parquet").exists():
        return read_ours(path)
    if not path.is_dir():
        return read_tndhm(path)
    found = sessions(path)
    if not found:
        raise SystemExit(f"{path}: no tndhm log (tndhm.log, tndhm.K.log) and no run folder")
    frames, offset = [], 0
    for one in found:
        df = read(one)
        if len(df):
            frames.append(df.assign(game=df.game - df.game.min() + 1 + offset))
            offset = int(frames[-1].game.max())
    return pd.concat(frames, ignore_index=True)


def sessions(folder: Path) -> list[Path]:
    """The sessions of one tournament in ``folder``, in the order they were played."""
    return sorted((*folder.glob("tndhm*.log"), *folder.glob("run.*")), key=session_number)


def session_number(path: Path) -> int:
    """``tndhm.K.log`` and ``run.K`` are session K; ``tndhm.log`` session 0."""
    number = path.name.split(".")[1]
    return int(number) if number.isdigit() else 0


def interval(values: pd.Series, games: pd.Series, batch: int) -> tuple[float, int]:
    """The 95 % half-width of the mean of ``values`` over batch means of ``batch``
    consecutive games (Student's t), and the number of batches (a last partial one is
    left out of the spread, not of the mean)."""
    first = games.min()
    groups = values.groupby((games - first) // batch)
    sizes = groups.size()
    means = groups.mean()[sizes == batch]
    k = len(means)
    if k < 2:
        return math.nan, k
    return float(stats.t.ppf(0.975, k - 1) * means.std(ddof=1) / math.sqrt(k)), k


def table(df: pd.DataFrame, batch: int) -> pd.DataFrame:
    """Per player: games, mean place and points with the 95 % half-widths."""
    out = []
    for (player, name), rows in df.groupby(["player", "name"]):
        rows = rows.sort_values("game")
        place, k = interval(rows.place, rows.game, batch)
        points, _ = interval(rows.points, rows.game, batch)
        small, _ = interval(rows.place, rows.game, 3)
        big, _ = interval(rows.place, rows.game, 100)
        out.append({"player": player, "name": name, "games": len(rows),
                    "place": rows.place.mean(), "place ±": place,
                    "points": rows.points.mean(), "points ±": points, "batches": k,
                    "place ± (3)": small, "place ± (100)": big})  # fmt: skip
    return pd.DataFrame(out).set_index("player")


def programs(folder: Path) -> list[Path]:
    found = sorted(p for p in folder.glob("*.sh") if p.is_file())
    if not found:
        raise SystemExit(f"no program in {folder}: put there one NAME.sh per program (--help)")
    return found[: SEATS - 1]


def play(args: argparse.Namespace, strategy: str, out: Path) -> Path:
    """One tournament of ``--games`` games: the server, the programs, then our client.
    A program that crashes ends a server's session (a UECda server stops when a client
    leaves); the finished games are kept and a new session plays the games left, up to
    20 sessions. A tournament already begun in ``out`` is carried on, its sessions
    numbered on, so a stopped benchmark resumes where it stopped. What to read: ``out``,
    one ``tndhm.K.log`` or ``run.K`` per session."""
    out.mkdir(parents=True, exist_ok=True)
    begun = sessions(out)
    first = session_number(begun[-1]) + 1 if begun else 1
    for k in range(first, first + 20):
        left = args.games - (read(out).game.nunique() if sessions(out) else 0)
        if left <= 0:
            break
        if left < args.games:
            print(f"{strategy}: carrying on in session {k}; {left} games left", file=sys.stderr)
        session(args, strategy, left, out, k)
    return out


def session(args: argparse.Namespace, strategy: str, games: int, out: Path, k: int) -> None:
    port = free_port()
    if args.server == "tndhm":
        log = out / f"tndhm.{k}.log"
        server = subprocess.Popen([str(args.programs / "tndhm"), "-g", str(games), "-p",
                                   str(port)], stdout=log.open("w"), stderr=subprocess.STDOUT,
                                  cwd=out)  # fmt: skip
    else:
        server = subprocess.Popen([*PRESIDENT, "uecda", "serve", "--games", str(games),
                                   "--port", str(port), "--host", "127.0.0.1", "--out",
                                   str(out / f"run.{k}"), "--seed", str(args.seed + k - 1)],
                                  stderr=(out / f"serve.{k}.log").open("w"))  # fmt: skip
    time.sleep(1.0)
    clients = []
    for program in programs(args.programs):
        clients.append(subprocess.Popen([str(program), str(port)], cwd=program.parent,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))  # fmt: skip
        time.sleep(0.3)
    ours = [strategy] + [args.fill] * (SEATS - 1 - len(programs(args.programs)))
    for name in ours:
        clients.append(subprocess.Popen([*PRESIDENT, "uecda", "play", "--strategy", name,
                                         "--port", str(port), "--quiet"],
                                        stderr=subprocess.DEVNULL))  # fmt: skip
        time.sleep(0.3)
    server.wait()
    for client in clients:
        try:
            client.wait(timeout=60)
        except subprocess.TimeoutExpired:
            client.kill()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])  # fmt: skip
    parser.add_argument("--programs", type=Path, help="the folder of external programs")
    parser.add_argument("--strategy", action="append", default=None,
                        help="our strategy to measure (repeat; default champion, linear)")  # fmt: skip
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--server", choices=["tndhm", "ours"], default="tndhm")
    parser.add_argument("--fill", default="rules-aware", help="our strategy for empty seats")
    parser.add_argument("--seed", type=int, default=0, help="our server's deals")
    parser.add_argument("--batch", type=int, default=30, help="games per batch (intervals)")
    parser.add_argument("--out", type=Path, default=Path("runs/uecda-strength"))
    parser.add_argument("--markdown", action="store_true", help="print the tables as Markdown")
    parser.add_argument("--read", type=Path, action="append", default=[],
                        help="a tndhm log or a run folder already played (repeat)")  # fmt: skip
    args = parser.parse_args()
    found = list(args.read)
    if not found:
        if args.programs is None:
            parser.error("--programs DIR (or --read FILE)")
        for strategy in args.strategy or ["champion", "linear"]:
            found.append(play(args, strategy, args.out / strategy.replace("/", "_")))
    pd.set_option("display.width", 200)
    for path in found:
        df = read(path)
        print(f"{path}: {df.game.nunique()} games")
        found_table = table(df, args.batch)
        print(markdown(found_table) if args.markdown else found_table.round(3).to_string())


def markdown(t: pd.DataFrame) -> str:
    """The table as docs/strategies.md holds it: mean ± half-width, 95 %."""
    lines = ["| player | games | mean place | points per game |", "|---|---|---|---|"]
    for _, row in t.sort_values("place").iterrows():
        lines.append(f"| {row['name']} | {row.games} | {row.place:.2f} ± {row['place ±']:.2f} "
                     f"| {row.points:.2f} ± {row['points ±']:.2f} |")  # fmt: skip
    return "\n".join(lines)


if __name__ == "__main__":
    main()
