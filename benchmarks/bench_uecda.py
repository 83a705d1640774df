"""How fast our UECda server plays, and how programs fare at its table:
``python benchmarks/bench_uecda.py [--games N] [--client "CMD {port}"]… [--out DIR]``.

Starts ``president uecda serve`` on a free port (a process of its own), then the clients:
each ``--client`` command (``{port}`` replaced by the server's port: an external UECda
program, built outside the project, one player per command; docs/uecda.md says how to get
some), and five minus their number of our ``--strategy`` clients in one more process.
Prints the games a minute (the server's own time, from its first deal to its last move),
the plays the server rejected (a program's play our rules refuse: docs/uecda.md, "Where
our server differs"), and each player's mean place and points per game (``president
report`` on the run folder gives them with their 95 % intervals).

How strong our strategies are at a table of external programs:
``benchmarks/bench_uecda_strength.py``.

The target: 500 games a minute or more with five ``lowest`` clients on 2 cores
(docs/uecda.md, "Speed").
"""

from __future__ import annotations

import argparse
import re
import shlex
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import pandas as pd

PRESIDENT = [sys.executable, "-m", "simulator"]


def serve(games: int, out: Path, seed: int) -> tuple[subprocess.Popen, int]:
    """The server, and the port it listens on (read from its log)."""
    server = subprocess.Popen(
        [*PRESIDENT, "uecda", "serve", "--games", str(games), "--port", "0",
         "--host", "127.0.0.1", "--out", str(out), "--seed", str(seed)],
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert server.stderr is not None
    line = server.stderr.readline()
    found = re.search(r"listening on port (\d+)", line)
    if not found:
        raise SystemExit(f"the server did not start: {line.strip()}")
    return server, int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--strategy", default="lowest", help="our clients' strategy")
    parser.add_argument("--client", action="append", default=[], help='"CMD {port}"')
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=None, help="keep the run folder here")
    args = parser.parse_args()
    out = args.out or Path(tempfile.mkdtemp(prefix="bench-uecda-")) / "run"
    server, port = serve(args.games, out, args.seed)
    clients = []
    for command in args.client:
        clients.append(subprocess.Popen(shlex.split(command.format(port=port))))
        time.sleep(0.2)  # joined in this order: players 0, 1, …
    ours = 5 - len(args.client)
    if ours > 0:
        clients.append(subprocess.Popen(
            [*PRESIDENT, "uecda", "play", "--strategy", args.strategy, "--port", str(port),
             "--count", str(ours), "--quiet"]))  # fmt: skip
    _, log = server.communicate()
    for client in clients:
        client.wait(timeout=60)
    lines = log.splitlines()
    done = [line for line in lines if re.search(r"\d+ games in [\d.]+ s", line)]
    rejected = [line for line in lines if "play rejected" in line]
    if not done:
        raise SystemExit("the server did not finish:\n" + log)
    games, seconds = re.search(r"(\d+) games in ([\d.]+) s", done[-1]).groups()  # type: ignore[union-attr]
    print(f"{games} games in {seconds} s: {int(games) / float(seconds) * 60:.0f} games a minute")
    print(f"{len(rejected)} plays rejected, by the rule our engine names:")
    reasons = Counter(re.sub(r".*'s play rejected \((.*)\);.*", r"\1", line) for line in rejected)
    for reason, count in reasons.most_common():
        print(f"  {count:6d}  {reason}")
    rows = pd.read_parquet(out / "rounds.parquet")
    by = rows.groupby("seat").agg(name=("strategy", "first"), place=("place", "mean"),
                                  points=("points", "mean"), games=("place", "size"))  # fmt: skip
    print(by.to_string())
    print(f"run folder: {out} (president report {out})")


if __name__ == "__main__":
    main()
