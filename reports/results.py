"""Every estimate of ``president report``, as one typed value (:class:`RunResults`).

The page's sections, its figures and what the run says read the estimates as fields, so
a misspelt name is an AttributeError that ruff and the tests find, not a KeyError on a
user's run; and a new statistic is one field here and its line in :func:`analyse`.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from reports import estimates, markov
from reports.chunk_sums import Tallies
from reports.data import Run
from reports.strategy.page import strategy_standings
from simulator.runs.standings import Standings


@dataclass(frozen=True)
class RunResults:
    """The estimates of a run: long frames with ``estimate``, ``lo``, ``hi``
    (:mod:`reports.estimates`), the strategy standings and the number of batches."""

    batches: int  # G: the batches of whole matches (or groups), every interval's clusters
    rates_strategy: pd.DataFrame  # mean place, President and Scum rates, points per round
    rates_seat: pd.DataFrame
    rates_seat_strategy: pd.DataFrame
    places_strategy: pd.DataFrame  # the share of rounds at each place
    places_seat: pd.DataFrame
    transitions: pd.DataFrame  # P(role next round | role now), with counts
    persistence: pd.DataFrame  # P(President → President) beside its no-memory baseline
    chain: pd.DataFrame  # stationary shares, tenure, SLEM, half-life
    next_place: pd.DataFrame  # expected place next round by role now
    role_value: pd.DataFrame  # points and mean place over the next h rounds, by role now
    wins_strategy: pd.DataFrame  # match win rates
    wins_seat: pd.DataFrame
    match_length: pd.DataFrame  # rounds per match, decided share
    leads: pd.DataFrame  # the first lead's effect, round 0 apart
    dealt: pd.DataFrame  # mean place in the rounds a player dealt and in the others
    game_length: pd.DataFrame  # tricks, plays, passes, skips per round
    convergence: pd.DataFrame  # running estimates against the rounds so far
    standings: Standings  # the strategies ranked, paired, by hand-strength decile
    duplicate: pd.DataFrame | None  # what duplicate deals gain; None without them


def analyse(t: Tallies, run: Run) -> RunResults:
    """Every estimate of the report from the run's tallies."""
    players = run.players
    g = estimates.batch_count(t.places)
    rates = estimates.player_rates(t.places, g, players, "strategy")
    return RunResults(
        batches=g,
        rates_strategy=rates,
        rates_seat=estimates.player_rates(t.places, g, players, "seat"),
        rates_seat_strategy=estimates.player_rates(t.places, g, players, ["seat", "strategy"]),
        places_strategy=estimates.place_distribution(t.places, g, "strategy"),
        places_seat=estimates.place_distribution(t.places, g, "seat"),
        transitions=estimates.transition_matrix(t.transitions, g),
        persistence=estimates.persistence(t.transitions, rates, run.lineup),
        chain=markov.chain_summary(t.transitions),
        next_place=estimates.next_place(t.transitions, g),
        role_value=estimates.role_value(t.forward, g),
        wins_strategy=estimates.match_results(t.strategy_matches, g, "strategy"),
        wins_seat=estimates.match_results(t.matches, g, "seat"),
        match_length=estimates.match_length(t.matches, g),
        leads=estimates.lead_effect(t.leads, g),
        dealt=estimates.ratio(t.dealt, ["strategy", "dealt"], "place_sum", "rows", g),
        game_length=estimates.game_length(t.length, g),
        convergence=estimates.convergence(t.places, players),
        standings=strategy_standings(t.standings, t.strategy_matches, t.strength),
        duplicate=None if t.moments is None else estimates.duplicate_gain(t.moments),
    )
