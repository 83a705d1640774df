"""A tournament from its job to its result files, as ``president tournament`` and the
Python API's ``tournament`` run it: the tables played (those not yet in the folder),
each told to a :class:`~simulator.runs.progress.Steps`; then the result files, the
strategy page when asked (written by the caller's ``write_page``: the pages are a layer
above) and the folder marked complete, each file written told to a
:data:`~simulator.runs.progress.Say`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from simulator import notices
from simulator.rules.options import Rules
from simulator.runs.progress import Say, Steps, silent
from simulator.runs.standings import Standings
from simulator.runs.tournament.folder import TournamentFolder
from simulator.runs.tournament.tables import (
    TournamentConfig,
    TournamentError,
    results,
    run_tournament,
)

TournamentPage = Callable[[Path, Rules, TournamentConfig, Standings], Path]


def play_tables(
    rules: Rules,
    config: TournamentConfig,
    workers: int,
    folder: TournamentFolder | None,
    engine: str,
    status: Steps,
) -> Standings:
    """Play the tables (those not in ``folder`` yet), the table under way and a compile's
    notice told to ``status``."""

    def progress(done: int, total: int, lineup: tuple[str, ...]) -> None:
        status.step(done, total, f"table {done + 1}/{total}", ", ".join(lineup))

    with notices.listening(status.notice):
        return run_tournament(rules, config, workers, progress, folder, engine)


def save_results(
    folder: TournamentFolder,
    standings: Standings,
    write_page: TournamentPage,
    say: Say = silent,
) -> None:
    """Write the result files (and, when the folder asks for it, the page), then mark the
    tournament complete; ``say`` tells what was written."""
    out = folder.path
    try:
        for name, content in results(folder.rules, folder.config, standings).items():
            folder.write(name, content)
        say(f"saved to {out}/ranking.csv, pairwise.csv, deciles.csv, tournament.json")
        if folder.report:
            page = write_page(out, folder.rules, folder.config, standings)
            say(f"report: {page}")
        folder.finish()
    except OSError as exc:
        raise TournamentError(
            f"cannot write to {out}: {exc.strerror or exc} (the tables are kept: free the "
            f"problem, then president tournament --resume {out})"
        ) from None
    if folder.was_complete:
        say(f"the tournament in {out} was already complete: no table was played again")
