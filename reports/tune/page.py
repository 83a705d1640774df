"""``DIR/tune.html``: what ``president tune`` found, and how far to trust it.

Three things, each with its 95 % interval (:mod:`simulator.stats`, clustered by deal
group): the **held-out check** first — the tuned parameters against the defaults on
seeds never used while tuning, the figure to quote, free of the winner's curse — then
the **convergence** (each generation's best candidate and the mean of its candidates, on
that generation's own deals) and the **paths** of the parameters (the CMA mean per
generation).
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from reports import html, numbers, settings
from reports.figures import NARROW, WIDE, legend_above, new_figure, publish
from simulator.rules.options import Rules
from simulator.runs.claims import write_atomic
from simulator.runs.tune.play import HeldOut, Space, TuneConfig, tuned_spec
from simulator.runs.tune.search import TuneState
from simulator.stats import ratio_interval

PAGE_FILE = "tune.html"
FIGURES_DIR = "figures"


def convergence_frame(state: TuneState) -> pd.DataFrame:
    """Per generation: the best candidate's mean place and the candidates' mean, each
    with its 95 % interval over the generation's deal groups."""
    rows = []
    for g in state.generations:
        cands = g["candidates"]
        best = min(cands, key=lambda c: c["fitness"])
        places = np.sum([c["places"] for c in cands], axis=0)
        rounds = np.sum([c["rounds"] for c in cands], axis=0)
        rows.append({"generation": g["generation"] + 1,
                     **_named("best", ratio_interval(best["places"], best["rounds"])),
                     **_named("mean", ratio_interval(places, rounds))})  # fmt: skip
    return pd.DataFrame(rows)


def _named(prefix: str, interval: tuple) -> dict[str, float]:
    return dict(zip((prefix, f"{prefix}_lo", f"{prefix}_hi"), interval[:3], strict=True))


def draw_convergence(frame: pd.DataFrame, narrow: bool = False) -> Figure:
    """Mean place per generation: the best candidate and the candidates' mean, 95 %."""
    fig = new_figure(NARROW if narrow else WIDE, 3.4)
    ax = fig.subplots()
    x = frame["generation"].to_numpy()
    for key, label, colour in (("mean", "mean of the candidates", "C0"),
                               ("best", "best candidate", "C1")):  # fmt: skip
        ax.plot(x, frame[key], marker="o", ms=3, color=colour, label=label)
        ax.fill_between(x, frame[f"{key}_lo"], frame[f"{key}_hi"], color=colour, alpha=0.2)
    ax.set_xlabel("generation")
    ax.set_ylabel("mean place (lower is better)")
    legend_above(fig, ax, 1 if narrow else 2)
    return fig


def draw_paths(space: Space, state: TuneState, narrow: bool = False) -> Figure:
    """The CMA mean of each parameter per generation, as a share of its range."""
    fig = new_figure(NARROW if narrow else WIDE, 3.4)
    ax = fig.subplots()
    tunable = [i for i, p in enumerate(space.spec.params) if p.bounds is not None]
    means = np.array([g["mean"] for g in state.generations] + [state.tuned])
    x = np.arange(1, len(means) + 1)
    for i in tunable:
        p = space.spec.params[i]
        lo, hi = p.bounds  # type: ignore[misc]
        ax.plot(x, (means[:, i] - lo) / (hi - lo), marker="o", ms=3, label=p.name)
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("generation (the last point: the final mean, the tuned values)")
    ax.set_ylabel("share of its range")
    if len(tunable) <= 8:
        legend_above(fig, ax, 4)
    return fig


def held_out_section(check: HeldOut, strategy: str) -> str:
    """The tuned against the defaults on fresh seeds, in a table and in words."""
    cells = [check.tuned, check.default]
    places = numbers.shared([*cells, check.diff])
    frame = pd.DataFrame({
        "": [f"{strategy}, tuned", f"{strategy}, defaults", "tuned − defaults"],
        "mean place [95 % interval]": [numbers.format_ci(*c, decimals=places) for c in cells]
        + [numbers.format_ci(*check.diff, decimals=places, signed=True)],
    })  # fmt: skip
    diff, lo, hi = check.diff
    if hi < 0:
        verdict = (
            "The tuned parameters place better than the defaults: the whole interval is below 0."
        )
    elif lo > 0:
        verdict = (
            "The tuned parameters place worse than the defaults: the whole interval is above 0."
        )
    else:
        verdict = ("The interval holds 0: on these seeds the tuned parameters cannot be told "
                   "from the defaults.")  # fmt: skip
    words = (
        f"Each played {check.rounds:,} seat-rounds on the same {check.groups:,} duplicate "
        "deal groups of a seed never used while tuning, in the field it was tuned against "
        f"(its mean seats playing the defaults). A difference of {diff:+.3f} means the tuned "
        f"strategy finishes, on average, {abs(diff):.3f} of a place "
        f"{'higher' if diff < 0 else 'lower'} per round than the defaults in its seat. The "
        "interval treats each deal group as one observation (Student's t), and the seeds are "
        "fresh, so it is free of the winner's curse that flatters the best candidate of a "
        "generation."
    )
    return html.box(html.paragraph(verdict)) + html.table(frame) + html.paragraph(words)


def values_table(space: Space, values: tuple[float, ...]) -> str:
    """The tuned value of each searched parameter beside its default and range."""
    rows = [
        (p.name, f"{v:.4g}", f"{p.default:g}", f"{p.bounds[0]:g} to {p.bounds[1]:g}", p.help)
        for p, v in zip(space.spec.params, values, strict=True)
        if p.bounds is not None
    ]
    frame = pd.DataFrame(rows, columns=["parameter", "tuned", "default", "range", "meaning"])
    return html.table(frame, text_columns=["meaning"], long_columns=["meaning"], prose=True)


def write_tune_page(out: Path, rules: Rules, config: TuneConfig, state: TuneState) -> Path:
    """Write ``OUT/tune.html`` (self-contained) and its figures in ``OUT/figures/``."""
    space = Space(tuned_spec(config.strategy))
    values = state.tuned
    assert values is not None
    frame = convergence_frame(state)
    embedded = publish(
        {
            "tune-convergence": (partial(draw_convergence, frame), CONVERGENCE),
            "tune-paths": (partial(draw_paths, space, state), PATHS),
        },
        out / FIGURES_DIR,
    )
    assert state.held_out is not None
    name = settings.rule_set_name(rules.to_dict())
    sections = [
        ("held-out", "Tuned against the defaults, on fresh seeds",
         held_out_section(state.held_out, config.strategy)),
        ("values", "The tuned parameters", values_table(space, values)
         + html.paragraph("Use them wherever a strategy is named: ",
                          html.code("--strategies DIR/tuned.toml"),
                          ", DIR being this page's folder.", note=True)),
        ("convergence", "Convergence", embedded["tune-convergence"]
         + html.paragraph(CONVERGENCE_WORDS)),
        ("paths", "The parameters' paths", embedded["tune-paths"]),
        ("settings", "Rules and tuning", settings.facts_table(_facts(rules, config, state))
         + settings.rules_section(name, {"value": rules.to_dict()})),
    ]  # fmt: skip
    lead = (f"{config.strategy} tuned for {name} rules, {rules.players} players: "
            f"{len(state.generations)} generations of CMA-ES")  # fmt: skip
    page = html.page(f"Président tuning: {config.strategy}", sections, lead)
    path = out / PAGE_FILE
    write_atomic(path, page)
    return path


def _facts(rules: Rules, config: TuneConfig, state: TuneState) -> list[tuple[str, str]]:
    assert state.held_out is not None
    length = f"to {rules.target} points" if rules.target else f"of {config.rounds_per_match} rounds"
    field = ", ".join(config.field)
    groups = state.generations[0]["groups"] if state.generations else 0
    return [
        ("strategy", config.strategy),
        ("field (the other seats)", f"{field} (mean: the generation's CMA mean)"),
        ("generations", str(len(state.generations))),
        ("candidates per generation", str(state.population)),
        ("per candidate", f"{groups} duplicate deal groups of matches {length}"),
        ("seed", f"{config.seed} (held-out check: {state.held_out.seed})"),
    ]


CONVERGENCE = "Mean place per generation: the best candidate and the mean of the candidates (95 %)"
PATHS = "The CMA mean of each parameter per generation, as a share of its range"
CONVERGENCE_WORDS = (
    "Each generation's candidates play that generation's own deals, so the curves move "
    "with the luck of those deals as well as with the search; within a generation the "
    "candidates are compared on the same deals (common random numbers), which is what "
    "the search needs. The best candidate of a generation is the luckiest of several "
    "noisy measures, so its mean place is flattered (the winner's curse): read the "
    "held-out check above for what the tuning is worth."
)
