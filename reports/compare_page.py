"""How a comparison is shown: the terminal table, ``compare.json``, figures and ``compare.html``.

The page is self-contained like ``president report``'s (:mod:`reports.html`); every figure
is also written as PNG and SVG to ``OUT/figures/``.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from reports import compare, html
from reports.compare import Comparison
from reports.figures import SHORT, new_figure, render, whiskers
from reports.stats import format_ci
from simulator.rules.roles import ROLE_NAMES

PAGE_FILE = "compare.html"
JSON_FILE = "compare.json"
FIGURES_DIR = "figures"
KEY_DIFFERENCES = (  # the panels of the differences figure
    "P(President → President)",
    "P(Scum → Scum)",
    "next place: Scum − President",
    "place correlation, round to next",
    "Gini of match place points",
    "tricks per round",
)


# ---------------------------------------------------------------- text


def _cell(row: pd.Series, signed: bool = False) -> str:
    text = format_ci(row["estimate"], row["lo"], row["hi"])
    return f"+{text}" if signed and row["estimate"] > 0 else text


def wide(frame: pd.DataFrame, signed: bool = False) -> pd.DataFrame:
    """Measures down, variants across, ``estimate [lo, hi]`` in each cell."""
    shown = frame.assign(value=[_cell(r, signed) for _, r in frame.iterrows()])
    out = shown.pivot_table(
        index=["group", "measure"], columns="variant", values="value", aggfunc="first", sort=False
    )
    return out.reset_index()


def terminal_table(c: Comparison) -> str:
    """Estimates per variant, then the paired differences to the baseline, as plain text."""
    lines = []
    est = wide(c.estimates)
    diff = wide(c.differences, signed=True).rename(
        columns={n: f"{n} − {c.baseline}" for n in c.names[1:]}
    )
    for title, frame in (
        ("estimates, 95 % intervals (jackknife over batches of matches)", est),
        (f"differences to {c.baseline}, paired by match (same deals)", diff),
    ):
        columns = [col for col in frame.columns if col not in ("group", "measure")]
        first = max(len(m) for m in frame["measure"]) + 2
        widths = [max(len(col), *(len(v) for v in frame[col])) for col in columns]
        lines.append(title)
        lines.append(
            " " * first + "  ".join(f"{col:>{w}}" for col, w in zip(columns, widths, strict=True))
        )
        for group, part in frame.groupby("group", sort=False):
            lines.append(f"{group}")
            for _, row in part.iterrows():
                cells = "  ".join(
                    f"{row[col]:>{w}}" for col, w in zip(columns, widths, strict=True)
                )
                lines.append(f"  {row['measure']:<{first - 2}}{cells}")
        lines.append("")
    return "\n".join(lines).rstrip()


def to_json(c: Comparison) -> dict[str, Any]:
    """The numbers of the comparison, machine-readable (NaN as null)."""

    def plain(value: Any) -> Any:
        if isinstance(value, np.integer):
            return int(value)
        if isinstance(value, (float, np.floating)):
            return None if math.isnan(value) else float(value)
        return value

    def records(frame: pd.DataFrame) -> list[dict[str, Any]]:
        return [{k: plain(v) for k, v in r.items()} for r in frame.to_dict(orient="records")]

    return {
        "variants": list(c.names),
        "baseline": c.baseline,
        "matches": c.summaries[0]["matches"],
        "batches": c.batches,
        "seed": c.summaries[0].get("seed"),
        "strategies": c.summaries[0]["strategies"],
        "estimates": records(c.estimates),
        "differences": records(c.differences),
        "ranking": records(c.ranking),
    }


# ---------------------------------------------------------------- figures


def _pick(frame: pd.DataFrame, measure: str) -> pd.DataFrame:
    return frame[frame["measure"] == measure].reset_index(drop=True)


def persistence_figure(c: Comparison) -> Figure:
    """P(President → President) and P(Scum → Scum) per variant, with the no-memory
    baseline of P(President → President) marked for each variant."""
    fig = new_figure(7, 3.2)
    ax = fig.add_subplot()
    for offset, measure in ((-0.12, "P(President → President)"), (0.12, "P(Scum → Scum)")):
        part = _pick(c.estimates, measure)
        y = np.arange(len(part)) + offset
        ax.errorbar(part["estimate"], y, xerr=whiskers(part), fmt="o", capsize=3, label=measure)
    baseline = _pick(c.estimates, "P(President → President) without memory")
    ax.scatter(baseline["estimate"], np.arange(len(baseline)) - 0.12, marker="|", s=300,
               color="grey", label="P→P without memory (Σπᵢ²/Σπᵢ)")  # fmt: skip
    ax.set_yticks(np.arange(len(c.names)), list(c.names))
    ax.set_xlabel("probability of keeping the role next round")
    ax.set_title("Role persistence")
    ax.legend(fontsize="small")
    return fig


def next_place_figure(c: Comparison) -> Figure:
    """Mean place next round by role now, one line per variant."""
    fig = new_figure(6, 3.4)
    ax = fig.add_subplot()
    roles = [r for r in ROLE_NAMES if (c.estimates["measure"] == f"next place after {r}").any()]
    x = np.arange(len(roles))
    for k, name in enumerate(c.names):
        part = c.estimates[c.estimates["variant"] == name].set_index("measure")
        part = part.reindex([f"next place after {r}" for r in roles]).reset_index()
        shift = (k - (len(c.names) - 1) / 2) * 0.06
        ax.errorbar(x + shift, part["estimate"], yerr=whiskers(part), marker="o", capsize=3,
                    label=name)  # fmt: skip
    ax.set_xticks(x, [SHORT[r] for r in roles])
    ax.set_xlabel("role now")
    ax.set_ylabel("mean place next round")
    ax.set_title("How much the current role decides the next round")
    ax.legend(fontsize="small")
    return fig


def differences_figure(c: Comparison) -> Figure:
    """Paired differences to the baseline for the key measures, with 95 % intervals."""
    fig = new_figure(8, 5)
    axes = fig.subplots(2, 3).ravel()
    for ax, measure in zip(axes, KEY_DIFFERENCES, strict=True):
        part = _pick(c.differences, measure)
        y = np.arange(len(part))
        ax.errorbar(part["estimate"], y, xerr=whiskers(part), fmt="o", capsize=3)
        ax.axvline(0, color="grey", linestyle="--")
        ax.set_yticks(y, [f"{v} − {c.baseline}" for v in part["variant"]], fontsize="small")
        ax.set_ylim(-0.5, len(part) - 0.5)
        ax.set_title(measure, fontsize="x-small")
    return fig


def strategies_figure(c: Comparison) -> Figure:
    """Mean place of each strategy in each variant (the ranking), with 95 % intervals."""
    fig = new_figure(6, 3.2)
    ax = fig.add_subplot()
    strategies = list(dict.fromkeys(c.ranking["strategy"]))
    for k, strategy in enumerate(strategies):
        part = c.ranking[c.ranking["strategy"] == strategy].set_index("variant")
        part = part.reindex(list(c.names)).reset_index()
        y = np.arange(len(part)) + (k - (len(strategies) - 1) / 2) * 0.15
        ax.errorbar(part["estimate"], y, xerr=whiskers(part), fmt="o", capsize=3,
                    label=strategy)  # fmt: skip
    ax.set_yticks(np.arange(len(c.names)), list(c.names))
    ax.set_xlabel("mean place (1 = President)")
    ax.set_title("Strategies by rule set")
    ax.legend(fontsize="small")
    return fig


def length_figure(c: Comparison) -> Figure:
    """Tricks, plays, passes, skips per round and rounds per match, per variant."""
    measures = [f"{m} per round" for m in compare.LENGTHS] + ["rounds per match"]
    fig = new_figure(8, 3)
    ax = fig.add_subplot()
    x = np.arange(len(measures))
    width = 0.8 / len(c.names)
    for k, name in enumerate(c.names):
        part = c.estimates[c.estimates["variant"] == name].set_index("measure")
        part = part.reindex(measures).reset_index()
        ax.bar(x + (k - (len(c.names) - 1) / 2) * width, part["estimate"], width,
               yerr=whiskers(part), capsize=2, label=name)  # fmt: skip
    ax.set_xticks(x, measures, fontsize="small")
    ax.set_title("Game length")
    ax.legend(fontsize="small")
    return fig


def make_figures(c: Comparison) -> dict[str, tuple[Figure, str]]:
    """Every figure of the page with its caption, by file name."""
    return {
        "persistence": (persistence_figure(c), "Role persistence per rule set, 95 % intervals"),
        "next_place": (next_place_figure(c), "Mean place next round by role now"),
        "differences": (
            differences_figure(c),
            f"Differences to {c.baseline}, paired by match, 95 % intervals",
        ),
        "strategies": (strategies_figure(c), "Mean place of each strategy per rule set"),
        "game_length": (length_figure(c), "Game length per rule set"),
    }


# ---------------------------------------------------------------- page


def write_page(c: Comparison, out: str | Path) -> Path:
    """Write ``out/compare.html``, ``out/compare.json`` and ``out/figures/`` (PNG and SVG)."""
    root = Path(out)
    fig_dir = root / FIGURES_DIR
    fig_dir.mkdir(parents=True, exist_ok=True)
    embedded = {}
    for name, (fig, caption) in make_figures(c).items():
        png = render(fig, "png")
        (fig_dir / f"{name}.png").write_bytes(png)
        (fig_dir / f"{name}.svg").write_bytes(render(fig, "svg"))
        embedded[name] = html.figure(name, png, caption)
    (root / JSON_FILE).write_text(json.dumps(to_json(c), indent=1, ensure_ascii=False) + "\n")
    title = "Président: rule sets compared (" + ", ".join(c.names) + ")"
    page = root / PAGE_FILE
    page.write_text(html.page(title, sections(c, embedded)), encoding="utf-8")
    return page


def _table(frame: pd.DataFrame, caption: str, signed: bool = False) -> str:
    return html.table(wide(frame, signed).drop(columns="group"), caption)


def sections(c: Comparison, figs: dict[str, str]) -> list[tuple[str, str, str]]:
    """The page's sections as (anchor, heading, HTML)."""
    est, diff = c.estimates, c.differences
    group = {g: est[est["group"] == g] for g in compare.GROUPS}
    diff_shown = diff.assign(variant=diff["variant"] + " − " + c.baseline)
    ratio = diff_shown.pivot_table(
        index="measure", columns="variant", values="variance_ratio", sort=False
    ).round(3)
    return [
        ("answer", "Does the exchange keep the President in power?", _answer(c, figs)),
        ("settings", "Settings", _settings(c)),
        (
            "inequality",
            "Inequality of outcomes",
            _table(group[compare.INEQUALITY], "By rule set") + figs["next_place"],
        ),
        (
            "strategies",
            "Ranking of strategies",
            html.table(_ranking(c), "Rank by mean place (1 = best)")
            + _table(group[compare.STRATEGIES], "By rule set")
            + figs["strategies"],
        ),
        (
            "length",
            "Game length",
            _table(group[compare.LENGTH], "By rule set") + figs["game_length"],
        ),
        (
            "differences",
            "Every difference",
            _table(diff_shown, f"Differences to {c.baseline}, paired by match", signed=True)
            + figs["differences"]
            + html.table(
                ratio.reset_index(),
                "Variance of the paired difference / variance if the variants were independent",
            ),
        ),
        ("method", "Method", _method(c)),
    ]


def _answer(c: Comparison, figs: dict[str, str]) -> str:
    players = int(c.summaries[0]["rules"]["players"])
    est = c.estimates[c.estimates["group"] == compare.PERSISTENCE]
    diff = c.differences[c.differences["group"] == compare.PERSISTENCE]
    exchanges = ", ".join(
        f"{n}: exchange = {json.dumps(s['rules']['exchange'])}"
        for n, s in zip(c.names, c.summaries, strict=True)
    )
    text = (
        "P(President → President) is the chance that the President of a round is President "
        "again in the next. Without any memory (each round's roles independent of the last) "
        "it would be Σπᵢ²/Σπᵢ, πᵢ each seat's President rate: 1/"
        f"{players} only when all players are alike; a strong player is President more "
        "often, so the President is likelier to be him — shown as 'without memory'. Above "
        "that baseline, the card exchange (the Scum hands over his best cards) keeps a "
        "President in power. A "
        "variant without exchange (exchange = []) isolates the exchange: its difference to "
        f"the same rules with the exchange is the exchange's effect. Rule sets: {exchanges}."
    )
    return (
        html.paragraph(text)
        + _table(est, "Role persistence by rule set")
        + _table(
            diff.assign(variant=diff["variant"] + " − " + c.baseline),
            f"Differences to {c.baseline}, paired by match",
            signed=True,
        )
        + figs["persistence"]
    )


def _settings(c: Comparison) -> str:
    first = c.summaries[0]
    facts = [
        ("seed", str(first.get("seed"))),
        ("players", str(first["rules"]["players"])),
        ("matches per variant", f"{first['matches']:,}"),
        ("batches (clusters)", str(c.batches)),
        ("strategies", ", ".join(f"seat {i}: {s}" for i, s in enumerate(first["strategies"]))),
        ("version", str(first.get("version"))),
    ]
    rounds = {n: s.get("rounds_played") for n, s in zip(c.names, c.summaries, strict=True)}
    facts.append(("rounds played", ", ".join(f"{n}: {r:,}" for n, r in rounds.items() if r)))
    keys = list(first["rules"])
    rules = pd.DataFrame(
        {"rule": keys}
        | {
            n: [_plain(s["rules"].get(k)) for k in keys]
            for n, s in zip(c.names, c.summaries, strict=True)
        }
    )
    return html.table(pd.DataFrame(facts, columns=["setting", "value"])) + html.table(
        rules, "Rules of each variant"
    )


def _plain(value: object) -> str:
    return json.dumps(value) if isinstance(value, (list, dict)) or value is None else str(value)


def _ranking(c: Comparison) -> pd.DataFrame:
    shown = c.ranking.assign(
        value=[
            f"{r['rank']}: {format_ci(r['estimate'], r['lo'], r['hi'])}"
            for _, r in c.ranking.iterrows()
        ]
    )
    out = shown.pivot_table(
        index="strategy", columns="variant", values="value", aggfunc="first", sort=False
    )
    return out[list(c.names)].reset_index()


def _method(c: Comparison) -> str:
    return html.paragraph(
        "Every variant plays the same strategies in the same seats with the same seed, so "
        "match m of every variant starts from the same shuffle and the same first dealer "
        "(common random numbers); rule sets with a scoring target play the same matches to "
        "their own length. The matches are split into "
        f"{c.batches} batches of consecutive matches (every match its own batch when there are "
        "few), the same in every variant; rounds within a match are correlated, matches are "
        "independent, so batches are the clusters. Each measure is a function θ = f(T) of "
        "the run's sums; its standard error is the delete-one-batch jackknife, "
        "Var = (G−1)/G · Σ_b (θ₍b₎ − θ̄)², where θ₍b₎ leaves batch b out, and its 95 % "
        "interval θ ± t(0.975, G−1)·SE. A difference between two variants is paired: its "
        "replicates are θᴮ₍b₎ − θᴬ₍b₎, both without the same batch (the same deals). "
        "The last table says how much the pairing saved: the paired variance over the sum of "
        "the two variances (below 1: the shared deals cancel part of the noise). Next "
        "place after a role and P(role → role) count every round but the first of a match; "
        "the Gini of place points (n − place, summed over a match) is averaged over matches."
    )
