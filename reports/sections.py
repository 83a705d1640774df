"""The sections of ``president report``'s page: each a function of the estimates → HTML.

:mod:`reports.build` computes the estimates and figures; these functions lay them out,
with the words that say what each interval means.
"""

from __future__ import annotations

import json

import pandas as pd

from reports import estimates, html
from reports.data import Run
from reports.stats import format_ci
from reports.strategy_page import strategy_section
from reports.tally import Tallies
from simulator.runs.standings import Standings


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
    standings: Standings,
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
        ("strategies", "Strategies compared", strategy_section(standings, figs, target)),
        *duplicate,
        ("seats", "Seat and first-lead effects", _seats(results, figs, run)),
        ("transitions", "Role transitions", _transitions(results, figs)),
        ("value", "Value of a role", _value(results, figs, scored, run)),
        ("matches", "Matches", _matches(results, figs, run, target)),
        ("length", "Game length", _length(results, figs)),
        ("convergence", "Convergence", figs["convergence"]),
        ("method", "Method", _method(t, run)),
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
    """The variance reduction of duplicate deals, per strategy and measure, with intervals."""
    shown = pd.DataFrame(
        {
            "strategy": gain["strategy"],
            "measure": gain["measure"],
            "estimate": [f"{e:.4f}" for e in gain["estimate"]],
            "± paired (groups)": [f"{h:.4f}" for h in gain["half_paired"]],
            "± independent (matches)": [f"{h:.4f}" for h in gain["half_independent"]],
            "variance ratio": [
                format_ci(v, lo, hi)
                for v, lo, hi in zip(
                    gain["variance_ratio"],
                    gain["variance_ratio_lo"],
                    gain["variance_ratio_hi"],
                    strict=True,
                )
            ],
            "equivalent independent matches": [f"{e:,.0f}" for e in gain["equivalent_matches"]],
        }
    )
    return (
        html.paragraph(
            f"Each group of {run.group} consecutive matches plays the distinct rotations of "
            "the line-up on the same deals, every seat receiving the same hands in every "
            "match of the group (the round-1 dealer's frame) and drawing the same random "
            "numbers, so the luck of the cards cancels between strategies. Every interval "
            "of this report therefore uses batches of whole groups as clusters (the paired "
            "estimate). The independent-deals column is the CR1 error with every match as "
            "its own cluster: it leaves out the covariance between the matches of a group, "
            "which is what sharing deals creates, so it estimates what the same number of "
            "independently dealt matches would give. Variance ratio = paired variance / "
            "independent variance (below 1: duplicate deals help), with its 95 % interval "
            "over the batches; equivalent independent matches = matches / ratio."
        )
        + html.table(shown, "Variance reduction per strategy")
        + figs["duplicate"]
    )


def _seats(results: dict[str, pd.DataFrame], figs: dict[str, str], run: Run) -> str:
    """Per seat: under duplicate deals every strategy sits at every seat, so the table
    gives each (seat, strategy) its own estimate, then the seat's pooled one."""
    by_pair = ci_table(results["rates_seat_strategy"], ["seat", "strategy"], "measure")
    pooled = ci_table(results["rates_seat"], ["seat"], "measure").assign(strategy="all")
    seats = pd.concat([by_pair, pooled[by_pair.columns]], ignore_index=True)
    seats = seats.sort_values(["seat", "strategy"], key=_pooled_last, kind="stable")
    dist = ci_table(results["places_seat"], ["seat"], "place")
    leads = results["leads"].assign(
        first_round=results["leads"]["first_round"].map({True: "round 0", False: "later rounds"}),
        led=results["leads"]["led"].map({True: "led", False: "did not lead"}),
    )
    leads = ci_table(leads, ["first_round", "led"], "measure").rename(
        columns={"first_round": "rounds", "led": "first trick"}
    )
    note = (
        "Under duplicate deals the strategies turn seats: each row is one strategy at one "
        "seat; 'all' pools the seat's players."
        if run.duplicate
        else "Each seat keeps its strategy; 'all' repeats the seat's value."
    )
    return (
        html.table(seats, "Per seat and strategy")
        + html.paragraph(note, note=True)
        + html.table(dist, "P(place) per seat")
        + html.table(leads, "First lead of the round (round 0 apart: its leader is random)")
        + figs["seat_effects"]
    )


def _pooled_last(column: pd.Series) -> pd.Series:
    """Sort key: the pooled row after the strategies."""
    return column.map(lambda v: (v == "all", v)) if column.name == "strategy" else column


def _transitions(results: dict[str, pd.DataFrame], figs: dict[str, str]) -> str:
    matrix = results["transitions"]
    out = figs["transitions"] + _persistence(results["persistence"])
    for strategy, part in matrix.groupby("strategy", sort=False):
        shown = ci_table(part, ["prev_role"], "role").rename(columns={"prev_role": "role now"})
        counts = part.pivot_table(
            index="prev_role", columns="role", values="count", aggfunc="sum", sort=False
        )
        counts.columns = [f"n→{c}" for c in counts.columns]
        shown = shown.merge(counts.reset_index(), left_on="role now", right_on="prev_role")
        title = "All players pooled" if strategy == estimates.POOLED else f"Strategy {strategy}"
        out += html.table(shown.drop(columns="prev_role"), title)
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
            "'half-life' rounds. Read the strategies' chains: a player keeps his strategy, so "
            "his roles form a chain; the pooled chain ('all') mixes skill with memory (a "
            "strong player is President again because he is strong), so its persistence and "
            "half-life overstate the memory of the roles in a mixed field. Intervals: "
            "delete-one-batch jackknife over the batches of matches.",
            note=True,
        )
        + html.table(nxt, "Expected place next round, by role now")
    )


def _persistence(persist: pd.DataFrame) -> str:
    """P(President → President) beside what it would be without memory."""
    shown = pd.DataFrame(
        {
            "strategy": persist["strategy"],
            "P(President → President)": [
                format_ci(e, lo, hi)
                for e, lo, hi in zip(persist["estimate"], persist["lo"], persist["hi"], strict=True)
            ],
            "without memory": [f"{b:.3f}" for b in persist["baseline"]],
            "transitions from President": persist["from_count"].astype(int),
        }
    )
    return html.table(shown, "Does the President stay President?") + html.paragraph(
        "Without memory (each round's roles independent of the last), a strategy's "
        "P(President → President) would be its own President rate π; pooled over a mixed "
        "field it would be Σπᵢ²/Σπᵢ over the seats' players (not 1/n: the President is "
        "likelier to be a strong player, who is President more often anyway). The excess "
        "over this baseline is the memory the exchange gives the role.",
        note=True,
    )


def _value(results: dict[str, pd.DataFrame], figs: dict[str, str], scored: bool, run: Run) -> str:
    value = results["role_value"]
    k = run.summary.get("rounds_per_match")
    limit = (
        f"Matches last {k} rounds, so a round's value can be followed over at most {k - 1} "
        "more rounds: the horizons stop there (the longest uses the first round only)."
        if k
        else "Under a points target the value over h rounds uses only the rounds whose "
        "match goes on for h more rounds, so it is conditional on the match going on."
    )
    if not len(value):
        return html.paragraph(f"{limit} There is no horizon to show.", note=True)
    out = figs["role_value"]
    for measure in ("points", "mean place") if scored else ("mean place",):
        part = value[value["measure"] == measure]
        out += html.table(
            ci_table(part, ["strategy", "role"], "horizon"),
            f"{measure} over the next h rounds (columns: h), by role now",
        )
    out += html.paragraph(limit, note=True)
    if not scored:
        out += html.paragraph("These rules score no points; the value is the mean place.", True)
    return out


def _matches(results: dict[str, pd.DataFrame], figs: dict[str, str], run: Run, target: bool) -> str:
    length = ci_table(results["match_length"], ["measure"], "scope")
    if not target:
        return html.paragraph(
            "No scoring target: every match lasts the fixed number of rounds "
            f"({run.summary.get('rounds_per_match', '–')}), and nobody wins a match.",
            note=True,
        ) + html.table(length)
    wins = results["wins_strategy"].assign(measure="match win rate")
    seats = results["wins_seat"].assign(measure="match win rate")
    return (
        html.table(ci_table(wins, ["strategy"], "measure"), "Match win rate per strategy")
        + html.paragraph(
            "Per strategy: the share of the matches it played that one of its players won "
            "(a strategy holding two seats counts once per match).",
            note=True,
        )
        + html.table(ci_table(seats, ["seat"], "measure"), "Match win rate per seat")
        + html.table(length, "Match length")
        + figs["match_length"]
    )


def _length(results: dict[str, pd.DataFrame], figs: dict[str, str]) -> str:
    return (
        html.table(ci_table(results["game_length"], ["measure"], "scope", 2)) + figs["game_length"]
    )


def _method(t: Tallies, run: Run) -> str:
    batches = estimates.batch_count(t.places)
    unit = (
        f"duplicate groups of {run.group} matches (they share their deals)"
        if run.duplicate
        else "matches"
    )
    return html.paragraph(
        "Rounds within a match are correlated (roles decide the next exchange); the "
        f"independent units are the {unit}. They are split into {batches} batches of "
        "consecutive whole units (every unit its own batch when there are few), and the "
        "batches are the clusters of every interval. Each estimate is a ratio of sums "
        "Σy/Σn; its 95 % interval is R ± t(0.975, G−1)·SE with the cluster-robust (CR1) "
        "standard error SE² = G/(G−1)·Σ_b (y_b − R·n_b)² / (Σn)², never a per-round "
        "binomial interval. Chain measures (stationary shares, tenure, SLEM) and the "
        "luck-adjusted means (whose slope is fitted on the same data) use the "
        "delete-one-batch jackknife over the same batches, with the same t quantile. "
        "Intervals of proportions are clipped to [0, 1]; near 0 or 1 with few events they "
        "are rough, so counts are shown beside the transition probabilities. Values of a "
        "role over the next h rounds use only rounds whose match goes on for h more rounds."
    )
