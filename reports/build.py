"""``president report DIR``: read a run once, estimate everything, write DIR/report.html.

One streaming pass over ``rounds.parquet`` fills the tallies (:mod:`reports.tally`);
everything after works on those small frames. Figures are written beside the report as
PNG and SVG (``DIR/figures/``) and embedded in the HTML as PNG.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
from matplotlib.figure import Figure

from reports import estimates, figures, html, markov, tally
from reports.data import ReportError, Run, iter_chunks, open_run
from reports.stats import format_ci

REPORT_FILE = "report.html"
FIGURES_DIR = "figures"


@dataclass(frozen=True)
class Tallies:
    """The sums of a whole run, by batch (see :mod:`reports.tally`)."""

    places: pd.DataFrame
    transitions: pd.DataFrame
    leads: pd.DataFrame
    length: pd.DataFrame
    length_histogram: pd.DataFrame
    matches: pd.DataFrame
    match_lengths: pd.DataFrame
    forward: pd.DataFrame
    moments: pd.DataFrame | None = None  # per-match moments, duplicate runs only


KEYS = {
    "places": ["batch", "strategy", "seat", "place"],
    "transitions": ["batch", "strategy", "prev_role", "role"],
    "leads": ["batch", "strategy", "first_round", "led"],
    "length": ["batch"],
    "length_histogram": ["measure", "value"],
    "matches": ["batch", "strategy", "seat"],
    "match_lengths": ["length"],
    "forward": ["batch", "strategy", "role", "horizon"],
}
MOMENT_KEYS = ["batch", "strategy"]


def collect(run: Run) -> Tallies:
    """One pass over the run's rows, chunk by chunk, into the run's tallies."""
    parts: dict[str, list[pd.DataFrame]] = {name: [] for name in KEYS}
    moments: list[pd.DataFrame] = []
    for chunk in iter_chunks(run):
        if run.group > 1:
            moments.append(tally.tally_match_moments(chunk))
        parts["places"].append(tally.tally_places(chunk))
        parts["transitions"].append(tally.tally_transitions(chunk))
        parts["leads"].append(tally.tally_leads(chunk, run.players))
        parts["length"].append(tally.tally_length(chunk))
        parts["length_histogram"].append(tally.tally_length_histogram(chunk))
        parts["matches"].append(tally.tally_matches(chunk))
        parts["match_lengths"].append(tally.tally_match_lengths(chunk))
        parts["forward"].append(tally.tally_forward(chunk))
    return Tallies(
        **{name: tally.combine(parts[name], KEYS[name]) for name in KEYS},
        moments=tally.combine(moments, MOMENT_KEYS) if moments else None,
    )


def analyse(t: Tallies, players: int) -> dict[str, pd.DataFrame]:
    """Every estimate of the report, by name (long frames with estimate, lo, hi)."""
    g = estimates.batch_count(t.places)
    extra = {} if t.moments is None else {"duplicate": estimates.duplicate_gain(t.moments, g)}
    return extra | {
        "rates_strategy": estimates.player_rates(t.places, g, players, "strategy"),
        "rates_seat": estimates.player_rates(t.places, g, players, "seat"),
        "places_strategy": estimates.place_distribution(t.places, g, "strategy"),
        "places_seat": estimates.place_distribution(t.places, g, "seat"),
        "transitions": estimates.transition_matrix(t.transitions, g),
        "chain": markov.chain_summary(t.transitions),
        "next_place": estimates.next_place(t.transitions, g),
        "role_value": estimates.role_value(t.forward, g),
        "wins_strategy": estimates.match_results(t.matches, g, "strategy"),
        "wins_seat": estimates.match_results(t.matches, g, "seat"),
        "match_length": estimates.match_length(t.matches, g),
        "leads": estimates.lead_effect(t.leads, g),
        "game_length": estimates.game_length(t.length, g),
        "convergence": estimates.convergence(t.places, players),
    }


def make_figures(
    results: dict[str, pd.DataFrame], t: Tallies, scored: bool, target: bool
) -> dict[str, tuple[Figure, str]]:
    """Every figure of the report with its caption, by file name."""
    out = {
        "place_distribution": (
            figures.place_distribution(results["places_strategy"]),
            "Place distribution per strategy, 95 % intervals",
        ),
        "rates": (
            figures.rates(
                _role_rates(results["rates_strategy"], "strategy"),
                _role_rates(results["rates_seat"], "seat"),
            ),
            "President and Scum rates per strategy and per seat, 95 % intervals",
        ),
        "transitions": (
            figures.transitions(results["transitions"]),
            "P(role next round | role now), per strategy and pooled",
        ),
        "role_value": (
            figures.role_value(results["role_value"], "points" if scored else "mean place"),
            "Value of each role over the next 1, 3, 10 rounds, 95 % intervals",
        ),
        "seat_effects": (
            figures.seat_effects(results["rates_seat"], results["leads"]),
            "Mean place by seat; President rate by first lead",
        ),
        "game_length": (
            figures.game_length(t.length_histogram),
            "Tricks, plays and passes per round",
        ),
        "convergence": (
            figures.convergence(results["convergence"]),
            "Running estimates against the number of rounds, 95 % bands",
        ),
    }
    if target:
        out["match_length"] = (figures.match_length(t.match_lengths), "Rounds per match")
    if "duplicate" in results:
        out["duplicate"] = (
            figures.duplicate_gain(results["duplicate"]),
            "Interval half-widths with duplicate deals against independent deals",
        )
    return out


def _role_rates(frame: pd.DataFrame, by: str) -> pd.DataFrame:
    """Only the President and Scum rates, sorted by ``by`` (for the rates figure)."""
    return frame[frame["measure"].isin(["President rate", "Scum rate"])].sort_values(
        [by, "measure"], kind="stable"
    )


def write_report(path: str | Path) -> Path:
    """Read the run in ``path`` and write ``path/report.html`` and ``path/figures/``."""
    run = open_run(path)
    t = collect(run)
    if int(t.places["place"].max()) != run.players:
        raise ReportError(
            f"summary.json says {run.players} players but the rows hold places up to "
            f"{int(t.places['place'].max())}"
        )
    results = analyse(t, run.players)
    rules = run.summary["rules"]
    scored = bool((t.places["points"] != 0).any())
    target = bool(rules.get("target", 0))
    figs = make_figures(results, t, scored, target)
    out_dir = run.path / FIGURES_DIR
    out_dir.mkdir(exist_ok=True)
    embedded = {}
    for name, (fig, caption) in figs.items():
        png = render(fig, "png")
        (out_dir / f"{name}.png").write_bytes(png)
        (out_dir / f"{name}.svg").write_bytes(render(fig, "svg"))
        embedded[name] = html.figure(name, png, caption)
    document = html.page(
        f"Président simulation report: {run.path.name}",
        sections(run, t, results, embedded, scored, target),
    )
    report = run.path / REPORT_FILE
    report.write_text(document, encoding="utf-8")
    return report


def render(fig: Figure, fmt: str) -> bytes:
    """A figure as PNG or SVG bytes (written to figures/ and, as PNG, embedded)."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format=fmt, dpi=110)
    return buffer.getvalue()


def ci_table(frame: pd.DataFrame, rows: list[str], columns: str, digits: int = 3) -> pd.DataFrame:
    """A display table: ``estimate [lo, hi]`` strings, ``rows`` down, ``columns`` across."""
    shown = frame.assign(
        value=[
            format_ci(e, lo, hi, digits)
            for e, lo, hi in zip(frame["estimate"], frame["lo"], frame["hi"], strict=True)
        ]
    )
    wide = shown.pivot_table(
        index=rows, columns=columns, values="value", aggfunc="first", sort=False
    )
    wide.columns = [str(c) for c in wide.columns]
    return wide.reset_index()


def sections(
    run: Run,
    t: Tallies,
    results: dict[str, pd.DataFrame],
    figs: dict[str, str],
    scored: bool,
    target: bool,
) -> list[tuple[str, str, str]]:
    """The report's sections as (anchor, heading, HTML)."""
    duplicate = (
        [("duplicate", "Duplicate deals", _duplicate(results["duplicate"], figs, run))]
        if "duplicate" in results
        else []
    )
    return [
        ("settings", "Run settings", _settings(run, t)),
        ("players", "Places and roles by strategy", _players(results, figs)),
        *duplicate,
        ("seats", "Seat and first-lead effects", _seats(results, figs, t)),
        ("transitions", "Role transitions", _transitions(results, figs)),
        ("value", "Value of a role", _value(results, figs, scored)),
        ("matches", "Matches", _matches(results, figs, run, target)),
        ("length", "Game length", _length(results, figs)),
        ("convergence", "Convergence", figs["convergence"]),
        ("method", "Method", _method(t)),
    ]


def _settings(run: Run, t: Tallies) -> str:
    """The scalar settings of summary.json, strategies by seat, then the rules."""
    summary = run.summary
    facts = [
        (k, _plain(v))
        for k, v in summary.items()
        if k not in ("rules", "strategies") and not _nested(v)
    ]
    seats = ", ".join(f"seat {i}: {s}" for i, s in enumerate(summary.get("strategies", [])))
    facts += [("strategies", seats), ("rows read", f"{int(t.places['rows'].sum()):,}")]
    rules = [(k, _plain(v)) for k, v in summary["rules"].items()]
    return html.table(pd.DataFrame(facts, columns=["setting", "value"])) + html.table(
        pd.DataFrame(rules, columns=["rule", "value"]), "Rules"
    )


def _nested(value: object) -> bool:
    """Tables inside summary.json (the simulator's own results): the report shows its own."""
    return isinstance(value, dict) or (
        isinstance(value, list) and any(isinstance(x, (dict, list)) for x in value)
    )


def _plain(value: object) -> str:
    """A setting as text: JSON for lists and tables, so it reads like summary.json."""
    return json.dumps(value) if isinstance(value, (list, dict)) or value is None else str(value)


def _players(results: dict[str, pd.DataFrame], figs: dict[str, str]) -> str:
    rates = ci_table(results["rates_strategy"], ["strategy"], "measure")
    dist = ci_table(results["places_strategy"], ["strategy"], "place")
    return (
        html.table(rates, "Per strategy")
        + figs["rates"]
        + html.table(dist, "P(place) per strategy (1 = President)")
        + figs["place_distribution"]
    )


def _duplicate(gain: pd.DataFrame, figs: dict[str, str], run: Run) -> str:
    """The variance reduction of duplicate deals, per strategy and measure."""
    shown = pd.DataFrame(
        {
            "strategy": gain["strategy"],
            "measure": gain["measure"],
            "estimate": [f"{e:.4f}" for e in gain["estimate"]],
            "± paired (groups)": [f"{h:.4f}" for h in gain["half_paired"]],
            "± independent (matches)": [f"{h:.4f}" for h in gain["half_independent"]],
            "variance ratio": [f"{v:.3f}" for v in gain["variance_ratio"]],
            "equivalent independent matches": [f"{e:,.0f}" for e in gain["equivalent_matches"]],
        }
    )
    return (
        html.paragraph(
            f"Each group of {run.group} consecutive matches shares its deals while the "
            "strategies turn one seat per match, so the luck of the cards cancels within a "
            "group. Every interval of this report therefore uses batches of whole groups as "
            "clusters (the paired estimate). The independent-deals column is the CR1 error "
            "with every match as its own cluster: it leaves out the covariance between the "
            "matches of a group, which is what sharing deals creates, so it estimates what "
            "the same number of independently dealt matches would give. Variance ratio = "
            "paired variance / independent variance (below 1: duplicate deals help); "
            "equivalent independent matches = matches × 1 / ratio."
        )
        + html.table(shown, "Variance reduction per strategy")
        + figs["duplicate"]
    )


def _seats(results: dict[str, pd.DataFrame], figs: dict[str, str], t: Tallies) -> str:
    strategy = t.places[["seat", "strategy"]].drop_duplicates()
    seats = strategy.merge(ci_table(results["rates_seat"], ["seat"], "measure"), on="seat")
    dist = ci_table(results["places_seat"], ["seat"], "place")
    leads = results["leads"].assign(
        first_round=results["leads"]["first_round"].map({True: "round 0", False: "later rounds"}),
        led=results["leads"]["led"].map({True: "led", False: "did not lead"}),
    )
    leads = ci_table(leads, ["first_round", "led"], "measure").rename(
        columns={"first_round": "rounds", "led": "first trick"}
    )
    return (
        html.table(seats, "Per seat")
        + html.table(dist, "P(place) per seat")
        + html.table(leads, "First lead of the round (round 0 apart: its leader is random)")
        + figs["seat_effects"]
    )


def _transitions(results: dict[str, pd.DataFrame], figs: dict[str, str]) -> str:
    matrix = results["transitions"]
    out = figs["transitions"]
    for strategy, part in matrix.groupby("strategy", sort=False):
        shown = ci_table(part, ["prev_role"], "role").rename(columns={"prev_role": "role now"})
        counts = part.pivot_table(
            index="prev_role", columns="role", values="count", aggfunc="sum", sort=False
        )
        counts.columns = [f"n→{c}" for c in counts.columns]
        shown = shown.merge(counts.reset_index(), left_on="role now", right_on="prev_role")
        out += html.table(shown.drop(columns="prev_role"), f"Strategy {strategy}")
    chain = ci_table(results["chain"], ["measure"], "strategy")
    nxt = ci_table(results["next_place"], ["prev_role"], "strategy").rename(
        columns={"prev_role": "role now"}
    )
    return (
        out
        + html.table(chain, "Role chain: stationary shares, President tenure, SLEM, half-life")
        + html.paragraph(
            "Tenure: expected consecutive rounds as President, the first included "
            "(1/(1 − P(P→P))). SLEM: the second-largest eigenvalue modulus of the matrix; the "
            "influence of the current role shrinks by this factor each round, halving every "
            "'half-life' rounds. Intervals: block bootstrap over batches of matches.",
            note=True,
        )
        + html.table(nxt, "Expected place next round, by role now")
    )


def _value(results: dict[str, pd.DataFrame], figs: dict[str, str], scored: bool) -> str:
    value = results["role_value"]
    out = figs["role_value"]
    for measure in ("points", "mean place") if scored else ("mean place",):
        part = value[value["measure"] == measure]
        out += html.table(
            ci_table(part, ["strategy", "role"], "horizon"),
            f"{measure} over the next h rounds (columns: h), by role now",
        )
    if not scored:
        out += html.paragraph("These rules score no points; the value is the mean place.", True)
    return out


def _matches(results: dict[str, pd.DataFrame], figs: dict[str, str], run: Run, target: bool) -> str:
    length = ci_table(results["match_length"], ["measure"], "scope")
    if not target:
        return html.paragraph(
            "No scoring target: every match lasts the fixed number of rounds "
            f"({run.summary.get('rounds', '–')}), and nobody wins a match.",
            note=True,
        ) + html.table(length)
    wins = results["wins_strategy"].assign(measure="match win rate")
    seats = results["wins_seat"].assign(measure="match win rate")
    return (
        html.table(ci_table(wins, ["strategy"], "measure"), "Match win rate per strategy")
        + html.table(ci_table(seats, ["seat"], "measure"), "Match win rate per seat")
        + html.table(length, "Match length")
        + figs["match_length"]
    )


def _length(results: dict[str, pd.DataFrame], figs: dict[str, str]) -> str:
    return (
        html.table(ci_table(results["game_length"], ["measure"], "scope", 2)) + figs["game_length"]
    )


def _method(t: Tallies) -> str:
    batches = estimates.batch_count(t.places)
    return html.paragraph(
        "Rounds within a match are correlated (roles decide the next exchange), matches are "
        f"independent. The matches are split into {batches} batches of consecutive matches "
        "(every match its own batch when there are few). Each estimate is a ratio of sums "
        "Σy/Σn; its 95 % interval is R ± t(0.975, G−1)·SE with the cluster-robust (CR1) "
        "standard error SE² = G/(G−1)·Σ_b (y_b − R·n_b)² / (Σn)², batches as clusters, "
        "never a per-round binomial interval. Chain measures (stationary shares, tenure, SLEM) "
        "use a percentile bootstrap over the same batches. Intervals of proportions are "
        "clipped to [0, 1]; near 0 or 1 with few events they are rough, so counts are shown "
        "beside the transition probabilities. Values of a role over the next h "
        "rounds use only rounds whose match goes on for h more rounds."
    )
