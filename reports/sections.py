"""The sections of ``president report``'s page: each a function of the estimates → HTML.

:mod:`reports.results` computes the estimates and :mod:`reports.build` the figures;
these functions lay them out, with the words that say what each interval means. The page opens with what the run says
(:mod:`reports.headline`) and the rules in words (:mod:`reports.settings`); the details
follow, and a glossary closes it, linked from the words' first uses.
"""

from __future__ import annotations

import pandas as pd

from reports import estimates, html, numbers, settings
from reports.chunk_sums import Tallies
from reports.data import Run
from reports.glossary import glossary, term
from reports.headline import run_summary
from reports.html import Markup
from reports.results import RunResults
from reports.strategy.page import clipped, strategy_section
from simulator.rules.roles import ROLE_TITLES

GLOSSARY = ("roles", "place", "rates", "seat-rounds", "interval", "persistence", "no-memory",
            "tenure", "chain", "slem", "luck", "holm", "deciles", "duplicate", "jackknife",
            "paired")  # fmt: skip


DEALT = {True: "dealt", False: "did not deal"}


def ci_table(
    frame: pd.DataFrame, rows: list[str], columns: str, stacked: bool = False
) -> pd.DataFrame:
    """A display table: ``estimate [lo, hi]`` strings, ``rows`` down, ``columns`` across
    (roles written out: Vice-Scum, not vice_scum).

    Every cell of one quantity shares one decimal count (:mod:`reports.numbers`): a
    column's, or a row's where the rows are the measures. ``stacked``: the interval on
    its own line under the estimate, for a table with many columns.
    """
    quantity = "measure" if "measure" in rows else columns
    places = numbers.shared_by(frame[quantity], frame["estimate"], frame["lo"], frame["hi"])
    cells = [
        _ci_cell(e, lo, hi, places[key], stacked)
        for e, lo, hi, key in zip(frame["estimate"], frame["lo"], frame["hi"], frame[quantity],
                                  strict=True)
    ]  # fmt: skip
    shown = titled(frame).assign(value=cells)
    wide = shown.pivot_table(
        index=rows, columns=columns, values="value", aggfunc="first", sort=False
    )
    wide.columns = [str(c) for c in wide.columns]
    return wide.reset_index()


def _ci_cell(estimate: float, lo: float, hi: float, places: int, stacked: bool) -> object:
    """One cell: ``0.312 [0.301, 0.323]``, or stacked, the interval on a second line."""
    if not stacked:
        return numbers.format_ci(estimate, lo, hi, places)
    value, _, interval = numbers.format_ci(estimate, lo, hi, places).partition(" ")
    return Markup(f'{html.text(value)}<span class="count">{html.text(interval)}</span>')


def titled(frame: pd.DataFrame) -> pd.DataFrame:
    """Role columns as people read them (President, Vice-Scum, …)."""
    roles = {c: frame[c].map(lambda r: ROLE_TITLES.get(r, r)) for c in ("role", "prev_role")
             if c in frame.columns}  # fmt: skip
    return frame.assign(**roles)


def sections(
    run: Run,
    t: Tallies,
    results: RunResults,
    figs: dict[str, str],
    scored: bool,
    target: bool,
) -> list[tuple[str, str, str]]:
    """The report's sections as (anchor, heading, HTML)."""
    duplicate = (
        [("duplicate", "Duplicate deals", _duplicate(results.duplicate, figs, run))]
        if results.duplicate is not None
        else []
    )
    clusters = results.batches
    standings = results.standings
    rules = run.summary["rules"]
    units = "duplicate groups" if run.duplicate else "matches"
    summary = run_summary(
        results, clipped(standings), rules, target, f"{clusters} batches of whole {units}"
    )
    return [
        ("summary", "What the run says", summary),
        ("settings", "Rules and run", _settings(run, t, clusters)),
        ("players", "Places and roles by strategy", _players(results, figs, scored)),
        ("strategies", "Strategies compared", strategy_section(standings, figs, target)),
        *duplicate,
        ("seats", "Seats and the first lead", _seats(results, figs, run, scored)),
        ("transitions", "Role transitions", _transitions(results, figs)),
        ("value", "Value of a role", _value(results, figs, scored, run)),
        ("matches", "Matches", _matches(results, figs, target)),
        ("length", "Game length", _length(results, figs)),
        ("convergence", "Convergence", _convergence(figs)),
        ("method", "Method", _method(clusters, run)),
        ("glossary", "Glossary", glossary(GLOSSARY)),
    ]


def _settings(run: Run, t: Tallies, clusters: int) -> str:
    """The run in words, then every rule with its meaning (changes from the defaults
    highlighted)."""
    rules = run.summary["rules"]
    name = settings.rule_set_name(rules)
    facts = settings.run_facts(run.summary, int(t.places["rows"].sum()), clusters)
    return settings.facts_table(facts) + settings.rules_section(name, {"value": rules})


def _players(results: RunResults, figs: dict[str, str], scored: bool) -> str:
    rates = results.rates_strategy
    if not scored:
        rates = rates[rates["measure"] != "points per round"]
    shown = ci_table(rates, ["strategy"], "measure")
    dist = ci_table(results.places_strategy, ["strategy"], "place")
    dist.columns = ["strategy", *(f"place {c}" for c in dist.columns[1:])]
    return (
        html.paragraph(
            "Each strategy's ",
            term("place", "mean place"),
            " (1 = first out), its ",
            term("rates", "President and Scum rates"),
            " and, below, the share of its rounds at each place; brackets are ",
            term("interval", "95 % intervals"),
            ".",
        )
        + html.table(shown, "Per strategy")
        + figs["rates"]
        + html.table(dist, "Share of rounds at each place (place 1 = President)")
        + figs["place_distribution"]
    )


def _duplicate(gain: pd.DataFrame, figs: dict[str, str], run: Run) -> str:
    """The variance reduction of duplicate deals, per strategy and measure, with intervals."""
    est, paired, ind = gain["estimate"], gain["half_paired"], gain["half_independent"]
    places = numbers.shared(zip(est, est - paired, est + paired, strict=True))
    shown = pd.DataFrame(
        {
            "strategy": gain["strategy"],
            "measure": gain["measure"],
            "estimate": [numbers.fixed(e, places) for e in est],
            "± paired (groups)": [numbers.fixed(h, places) for h in paired],
            "± independent (matches)": [numbers.fixed(h, places) for h in ind],
            "variance ratio": numbers.format_column(
                gain["variance_ratio"], gain["variance_ratio_lo"], gain["variance_ratio_hi"]
            ),
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
            "independently dealt matches would give. ",
            term("duplicate", "Variance ratio"),
            " = paired variance / independent variance (below 1: duplicate deals help), with "
            "its 95 % interval over the batches; equivalent independent matches = matches / "
            "ratio.",
        )
        + html.table(shown, "Variance reduction per strategy", text_columns=["measure"])
        + figs["duplicate"]
    )


def _seats(results: RunResults, figs: dict[str, str], run: Run, scored: bool) -> str:
    """Per seat. Under duplicate deals every strategy sits at every seat, so each (seat,
    strategy) has its own row, then the seat's players pooled ('all'); otherwise each seat
    keeps its strategy and one row per seat says it all."""

    def drop_points(frame: pd.DataFrame) -> pd.DataFrame:
        return frame if scored else frame[frame["measure"] != "points per round"]

    if run.duplicate:
        by_pair = ci_table(
            drop_points(results.rates_seat_strategy), ["seat", "strategy"], "measure"
        )
        pooled = ci_table(drop_points(results.rates_seat), ["seat"], "measure").assign(
            strategy="all"
        )
        seats = pd.concat([by_pair, pooled[by_pair.columns]], ignore_index=True)
        seats = seats.sort_values(["seat", "strategy"], key=_pooled_last, kind="stable")
        note = (
            "Under duplicate deals the strategies turn seats: each row is one strategy at "
            "one seat; 'all' pools the seat's players."
        )
    else:
        seats = ci_table(drop_points(results.rates_seat), ["seat"], "measure")
        seats.insert(1, "strategy", [run.lineup[int(s)] for s in seats["seat"]])
        note = "Each seat keeps its strategy for the whole run."
    dist = ci_table(results.places_seat, ["seat"], "place")
    dist.columns = ["seat", *(f"place {c}" for c in dist.columns[1:])]
    leads = results.leads.assign(
        first_round=results.leads["first_round"].map({True: "first", False: "later"}),
        led=results.leads["led"].map({True: "led", False: "did not lead"}),
    )
    leads = ci_table(leads, ["first_round", "led"], "measure").rename(
        columns={"first_round": "round", "led": "first trick"}
    )
    dealt = results.dealt.assign(dealt=results.dealt["dealt"].map(DEALT))
    return (
        html.table(seats, "Per seat", text_columns=["strategy"])
        + html.paragraph(note, note=True)
        + html.table(dist, "Share of rounds at each place, per seat")
        + html.table(leads, "Leading the first trick of a round", text_columns=["first trick"])
        + html.paragraph(settings.who_leads(run.summary["rules"]), note=True)
        + figs["seat_effects"]
        + html.table(
            ci_table(dealt, ["strategy"], "dealt"), "Mean place by whether the player dealt"
        )
        + html.paragraph(_who_deals(run.summary["rules"].get("dealer", "scum")), note=True)
    )


def _who_deals(dealer: str) -> str:
    """What the dealt/did-not-deal gap mixes, under the run's ``dealer`` rule."""
    later = (
        "the deal passes round the table"
        if dealer == "rotate"
        else f"last round's {ROLE_TITLES.get(dealer, dealer)} deals, so the gap mixes "
        "dealing with holding that role"
    )
    return (
        "Each strategy's mean place in the rounds its players dealt and in the others. A "
        f"match's first dealer is drawn at random; from the second round on {later}. "
        "Dealing changes the hands only when the deck does not divide evenly: the players "
        "left of the dealer then hold a card more."
    )


def _pooled_last(column: pd.Series) -> pd.Series:
    """Sort key: the pooled row after the strategies."""
    return column.map(lambda v: (v == "all", v)) if column.name == "strategy" else column


def _transitions(results: RunResults, figs: dict[str, str]) -> str:
    matrix = results.transitions
    out = (
        html.paragraph(
            "The ",
            term("chain", "transition matrix"),
            " P(role next round | role now) of each strategy's players, then of all players "
            "together; each cell gives the probability with its interval and, below it, how "
            "many such transitions were seen.",
        )
        + figs["transitions"]
        + _persistence(results.persistence)
    )
    for strategy, part in matrix.groupby("strategy", sort=False):
        places = numbers.shared_by(part["role"], part["estimate"], part["lo"], part["hi"])
        cells = titled(part).assign(value=[
            Markup(f'{html.text(numbers.format_ci(e, lo, hi, places[role]))}'
                   f'<span class="count">n = {int(n):,}</span>')
            for e, lo, hi, n, role in zip(part["estimate"], part["lo"], part["hi"],
                                          part["count"], part["role"], strict=True)
        ])  # fmt: skip
        shown = cells.pivot_table(
            index="prev_role", columns="role", values="value", aggfunc="first", sort=False
        )
        shown.columns = [f"→ {c}" for c in shown.columns]
        shown = shown.reset_index().rename(columns={"prev_role": "role now"})
        title = "All players" if strategy == estimates.POOLED else f"Strategy {strategy}"
        out += html.table(shown, title)
    chain = ci_table(results.chain.assign(measure=results.chain["measure"].map(_chain_name)),
                     ["measure"], "strategy", stacked=True)  # fmt: skip
    nxt = ci_table(results.next_place, ["prev_role"], "strategy").rename(
        columns={"prev_role": "role now"}
    )
    return (
        out
        + html.table(chain, "Role chain: stationary shares, President tenure, SLEM, half-life")
        + html.paragraph(
            term("tenure", "Tenure"),
            ": expected consecutive rounds as President, the first included (1/(1 − P(P→P))). ",
            term("slem", "SLEM"),
            ": the second-largest eigenvalue modulus of the matrix; the influence of the "
            "current role shrinks by this factor each round, halving every 'half-life' "
            "rounds. Read the strategies' chains: a player keeps his strategy, so his roles "
            "form a chain; the pooled chain ('all') mixes skill with memory (a strong player "
            "is President again because he is strong), so its persistence and half-life "
            "overstate the memory of the roles in a mixed field. Intervals: ",
            term("jackknife", "delete-one-batch jackknife"),
            " over the batches of matches.",
            note=True,
        )
        + html.table(nxt, "Expected place next round, by role now")
    )


def _chain_name(measure: str) -> str:
    """``stationary vice_scum`` → ``stationary share: Vice-Scum``."""
    role = measure.removeprefix("stationary ")
    return f"stationary share: {ROLE_TITLES[role]}" if role in ROLE_TITLES else measure


def _persistence(persist: pd.DataFrame) -> str:
    """P(President → President) beside what it would be without memory."""
    stay = zip(persist["estimate"], persist["lo"], persist["hi"], strict=True)
    places = numbers.shared(stay)
    shown = pd.DataFrame(
        {
            "strategy": persist["strategy"],
            "P(President → President)": numbers.format_column(
                persist["estimate"], persist["lo"], persist["hi"]
            ),
            "without memory": [numbers.fixed(b, places) for b in persist["baseline"]],
            "rounds as President followed by another": [
                f"{int(n):,}" for n in persist["from_count"]
            ],
        }
    )
    return html.table(shown, "Does the President stay President?") + html.paragraph(
        term("no-memory", "Without memory"),
        " (each round's roles independent of the last), a strategy's "
        "P(President → President) would be its own President rate π; pooled over a mixed "
        "field it would be Σπᵢ²/Σπᵢ over the seats' players (not 1/n: the President is "
        "likelier to be a strong player, who is President more often anyway). The excess "
        "over this baseline is the memory the exchange gives the role.",
        note=True,
    )


def _value(results: RunResults, figs: dict[str, str], scored: bool, run: Run) -> str:
    value = results.role_value
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
        shown = ci_table(part, ["strategy", "role"], "horizon")
        shown.columns = [*shown.columns[:2], *(f"next {h}" for h in shown.columns[2:])]
        per = "points per round" if measure == "points" else "mean place"
        out += html.table(
            shown, f"{per} over the next h rounds, by role now", text_columns=["role"]
        )
    out += html.paragraph(limit, note=True)
    if not scored:
        out += html.paragraph(
            "These rules score no points; a role's value is the mean place that follows it.",
            note=True,
        )
    return out


def _matches(results: RunResults, figs: dict[str, str], target: bool) -> str:
    if not target:
        rounds = results.match_length
        rounds = rounds[rounds["measure"] == "rounds per match"]["estimate"]
        fixed = f"{rounds.iat[0]:.0f}" if len(rounds) else "a fixed number of"
        return html.paragraph(
            f"No scoring target: every match lasts {fixed} rounds, and nobody wins a match.",
            note=True,
        )
    length = ci_table(results.match_length, ["measure"], "scope")
    wins = results.wins_strategy.assign(measure="match win rate")
    seats = results.wins_seat.assign(measure="match win rate")
    return (
        html.table(ci_table(wins, ["strategy"], "measure"), "Match win rate per strategy")
        + html.paragraph(
            "Per strategy: the share of the matches it played that one of its players won "
            "(a strategy holding two seats counts once per match). Decided share: the "
            "matches that ended by the target rather than at the round limit.",
            note=True,
        )
        + html.table(ci_table(seats, ["seat"], "measure"), "Match win rate per seat")
        + html.table(length, "Match length")
        + figs["match_length"]
    )


def _length(results: RunResults, figs: dict[str, str]) -> str:
    frame = results.game_length
    frame = frame.assign(measure=frame["measure"] + " per round")
    return html.table(ci_table(frame, ["measure"], "scope")) + figs["game_length"]


def _convergence(figs: dict[str, str]) -> str:
    return (
        html.paragraph(
            "Each strategy's estimate after the first k batches of matches, as a run that "
            "short would have reported it: the band narrows as the run grows.",
            note=True,
        )
        + figs["convergence"]
    )


def _method(batches: int, run: Run) -> str:
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
        "Proportions (rates, shares, transition probabilities) get the score interval on "
        "the batches' effective sample size (Σn over the design effect), t with the degrees "
        "of freedom of their variance (fewer than G−1 when a few batches hold the events): "
        "it stays in [0, 1], and a rate never observed gets an upper bound of about 3.8/Σn, not a "
        "zero width; counts are shown beside the transition probabilities. Values of a "
        "role over the next h rounds use only rounds whose match goes on for h more rounds."
    )
