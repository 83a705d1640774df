"""A tune from its folder to its result, as ``president tune`` and the Python API's
``tune`` run it: the generations the folder lacks, played where the engine says, each
told to a :class:`~simulator.runs.progress.Steps`; then ``tuned.toml``, the page
(written by the caller's ``write_page``: the pages are a layer above) and the folder
marked complete, what was found told to a :data:`~simulator.runs.progress.Say`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path

from simulator import notices
from simulator.rules.options import Rules
from simulator.runs.engines import engine_context
from simulator.runs.progress import Say, Steps, silent
from simulator.runs.tune.folder import TuneFolder
from simulator.runs.tune.play import Space, TuneConfig, TuneError, evaluate_locally, tuned_spec
from simulator.runs.tune.search import TuneState, dask_evaluator, run_tune
from strategies.tuned import tuned_text

TunePage = Callable[[Path, Rules, TuneConfig, TuneState], Path]


def _evaluator(engine: str, workers: int) -> contextlib.AbstractContextManager:
    """How a generation's candidates are played: here, or on a local Dask cluster."""
    return engine_context(engine, workers, evaluate_locally, dask_evaluator)


def search_generations(folder: TuneFolder, engine: str, workers: int, status: Steps) -> TuneState:
    """The generations not yet in ``folder``, the generation under way told to ``status``."""
    total = folder.config.generations
    done = len(folder.state.generations) if folder.state else 0
    status.step(done, total, f"generation {done + 1}/{total}")

    def progress(done: int, total: int, best: float, mean: float) -> None:
        what = f"generation {min(done + 1, total)}/{total}"
        status.step(done, total, what, f"best {best:.3f}  mean {mean:.3f}")

    with notices.listening(status.notice), _evaluator(engine, workers) as evaluate:
        return run_tune(folder.rules, folder.config, folder.state, folder, evaluate, progress)


def finish_tune(
    folder: TuneFolder, state: TuneState, write_page: TunePage, say: Say = silent
) -> Path:
    """Write tuned.toml and the page, mark the tune complete, ``say`` what was found;
    returns the page."""
    config, out = folder.config, folder.path
    space = Space(tuned_spec(config.strategy))
    values = state.tuned
    assert values is not None and state.held_out is not None
    tuning = {"generations": config.generations, "population": state.population,
              "rounds_per_candidate": config.rounds_per_candidate,
              "held_out_rounds": config.held_out_rounds, "seed": config.seed,
              "held_out_seed": state.held_out.seed, "field": list(config.field),
              "players": folder.rules.players}  # fmt: skip
    try:
        folder.write("tuned.toml", tuned_text(space.spec, values, folder.rules, tuning))
        page = write_page(out, folder.rules, config, state)
        folder.finish()
    except OSError as exc:
        raise TuneError(
            f"cannot write to {out}: {exc.strerror or exc} (the generations are kept: free "
            f"the problem, then president tune --resume {out})"
        ) from None
    for p, v in zip(space.spec.params, values, strict=True):
        if p.bounds is not None:
            say(f"  {p.name} = {v:.4g}  (default {p.default:g})")
    check = state.held_out
    diff, lo, hi = check.diff
    say(
        f"held-out check ({check.groups} deal groups never used while tuning): mean place "
        f"tuned {check.tuned[0]:.3f}, default {check.default[0]:.3f}; tuned − default "
        f"{diff:+.3f} [{lo:+.3f}, {hi:+.3f}] (95 %; negative: the tuned places better)"
    )
    say(f"saved to {out}/tuned.toml (use: --strategies {out}/tuned.toml); report: {page}")
    return page
