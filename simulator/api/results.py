"""What the Python API returns: each command's results as pandas DataFrames.

Every object holds the same numbers the command prints (``text()`` is the command's own
output, built by the same functions), its tables as DataFrames, and shows its main table
in a notebook (``_repr_html_``). Anything read from disk (a run's rounds, its report's
estimates) is read once, when first asked for.
"""

from __future__ import annotations

import html
import tempfile
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from simulator.runs.job import SimConfig
from simulator.runs.progress import step_line
from simulator.runs.summary import ROUNDS_FILE, RunResult

if TYPE_CHECKING:
    from reports.advice import AdviceTable
    from reports.compare.comparison import Comparison
    from reports.results import RunResults
    from simulator.rules.options import Rules
    from simulator.runs.compare.variants import Variant
    from simulator.runs.standings import Standings
    from simulator.runs.tournament.tables import TournamentConfig
    from simulator.runs.tune.play import TuneConfig
    from simulator.runs.tune.search import TuneState


def _html(title: str, frame: pd.DataFrame) -> str:
    """A titled table for a notebook."""
    return f"<p><b>{html.escape(title)}</b></p>" + frame.to_html(
        index=False, float_format="{:.4f}".format
    )


def standings_frame(result: RunResult, players: int) -> pd.DataFrame:
    """The table ``president simulate`` prints, one row per strategy: seat-rounds, the
    share of each place (``P1`` …), mean place, luck-adjusted mean place and President
    rate, each with its 95 % interval (``_low``, ``_high``)."""
    rows = []
    for row in result.table:
        shares = {f"P{i + 1}": row["shares"][i] for i in range(players)}
        rest = {k: v for k, v in row.items() if k not in ("strategy", "rounds", "shares")}
        rows.append({"strategy": row["strategy"], "rounds": row["rounds"], **shares, **rest})
    return pd.DataFrame(rows).astype({k: float for k in rows[0] if k not in ("strategy", "rounds")})


@dataclass
class Simulation:
    """A run of ``simulate``: its job, its folder and its results.

    ``standings`` is the per-strategy table the command prints; ``rounds`` the run's
    rows (``docs/formats.md``), read when first asked for; ``results`` every estimate
    of its report (:class:`reports.results.RunResults`), ``transitions`` among them.
    A run given no ``out`` lives in a temporary folder removed with this object.
    """

    config: SimConfig
    path: Path
    result: RunResult
    report_path: Path | None = None
    _scratch: tempfile.TemporaryDirectory[str] | None = field(default=None, repr=False)

    @cached_property
    def standings(self) -> pd.DataFrame:
        return standings_frame(self.result, self.config.rules.players)

    @cached_property
    def rounds(self) -> pd.DataFrame:
        """Every round of the run, one row each (``rounds.parquet``)."""
        return pd.read_parquet(self.path / ROUNDS_FILE)

    @cached_property
    def results(self) -> RunResults:
        """Every estimate of the run's report, read from its folder once."""
        from reports.run_report import analysed_run

        with step_line(False) as status:
            return analysed_run(self.path, status).results

    @property
    def transitions(self) -> pd.DataFrame:
        """P(role next round | role now), with its interval and counts."""
        return self.results.transitions

    @property
    def estimation(self) -> dict[str, object]:
        """How the intervals were computed: clusters, the luck slope and its interval."""
        return self.result.estimation

    def text(self, width: int = 100) -> str:
        """The table ``president simulate`` prints, lines at most ``width`` columns."""
        from reports.run_text import format_table

        return format_table(self.result, self.config.rules.players, self.config.duplicate, width)

    def _repr_html_(self) -> str:
        title = f"{self.result.rounds:,} rounds in {self.result.matches:,} matches"
        return _html(title, self.standings)


@dataclass
class Compared:
    """A ``compare``: the variants, and every estimate side by side.

    ``estimates``: per variant and measure (estimate, lo, hi, se); ``differences``: each
    variant minus the first, paired by match; ``ranking``: the strategies by mean place
    in each variant. ``comparison`` is the whole :class:`reports.compare.comparison.Comparison`.
    ``skill``: with ``compare(skill=True)``, the atlas's rows for the rule sets (the
    columns of ``atlas.parquet``, docs/formats.md), else None.
    """

    variants: list[Variant]
    comparison: Comparison
    path: Path | None = None
    page: Path | None = None
    skill: pd.DataFrame | None = None

    @property
    def estimates(self) -> pd.DataFrame:
        return self.comparison.estimates

    @property
    def differences(self) -> pd.DataFrame:
        return self.comparison.differences

    @property
    def ranking(self) -> pd.DataFrame:
        return self.comparison.ranking

    def text(self, width: int = 100) -> str:
        """The table ``president compare`` prints."""
        from reports.compare.text import terminal_table

        return terminal_table(self.comparison, width, self.skill)

    def _repr_html_(self) -> str:
        shown = self.differences[
            ["variant", "baseline", "group", "measure", "estimate", "lo", "hi"]
        ]
        return _html(f"differences to {self.comparison.baseline}", shown)


@dataclass
class Tournament:
    """A ``tournament``: the ranking, each pair's difference, the hand-strength deciles.

    ``standings`` is the whole :class:`simulator.runs.standings.Standings`.
    """

    rules: Rules
    config: TournamentConfig
    standings: Standings
    path: Path | None = None

    @property
    def ranking(self) -> pd.DataFrame:
        return self.standings.ranking

    @property
    def pairwise(self) -> pd.DataFrame:
        return self.standings.pairwise

    @property
    def deciles(self) -> pd.DataFrame:
        return self.standings.deciles

    def text(self, width: int = 100) -> str:
        """The ranking and the pairs as ``president tournament`` prints them."""
        from reports.strategy.text import format_pairwise, format_ranking

        st = self.standings
        ranking = format_ranking(st.ranking, st.clusters, width, st.luck_balanced)
        order = list(st.ranking["strategy"])
        return ranking + "\n\n" + format_pairwise(st.pairwise, order, width)

    def _repr_html_(self) -> str:
        return _html(f"ranking over {self.standings.clusters} deal groups", self.ranking)


@dataclass
class Report:
    """A run's report: the page written, and every estimate on it (``results``)."""

    path: Path
    results: RunResults

    @property
    def transitions(self) -> pd.DataFrame:
        return self.results.transitions

    @property
    def standings(self) -> pd.DataFrame:
        """The strategies ranked, as the report's strategy section shows them."""
        return self.results.standings.ranking

    def _repr_html_(self) -> str:
        return f"<p>report: <code>{html.escape(str(self.path))}</code></p>" + _html(
            "mean place, President and Scum rates by strategy", self.results.rates_strategy
        )


@dataclass
class Tuned:
    """A ``tune``: the tuned values, the generations, and the held-out check.

    ``values``: each parameter searched, tuned and default; ``generations``: the best
    candidate's and the candidates' mean place per generation (on that generation's
    deals, so the best is flattered: the winner's curse); ``held_out``: tuned and default
    on deals never used while tuning, and tuned minus default, each with its 95 %
    interval (negative: the tuned values place better) — the figure to quote.
    ``tuned_file`` is loadable wherever a strategy is named.
    """

    rules: Rules
    config: TuneConfig
    state: TuneState
    path: Path
    page: Path
    _scratch: tempfile.TemporaryDirectory[str] | None = field(default=None, repr=False)

    @property
    def tuned_file(self) -> Path:
        return self.path / "tuned.toml"

    @property
    def values(self) -> pd.DataFrame:
        from simulator.runs.tune.play import tuned_spec

        spec = tuned_spec(self.config.strategy)
        assert self.state.tuned is not None
        return pd.DataFrame(
            [
                {"parameter": p.name, "tuned": v, "default": p.default}
                for p, v in zip(spec.params, self.state.tuned, strict=True)
                if p.bounds is not None
            ]
        )

    @property
    def generations(self) -> pd.DataFrame:
        rows = []
        for g in self.state.generations:
            fitness = [c["fitness"] for c in g["candidates"]]
            rows.append({"generation": g["generation"] + 1, "best": min(fitness),
                         "mean": sum(fitness) / len(fitness)})  # fmt: skip
        return pd.DataFrame(rows)

    @property
    def held_out(self) -> pd.DataFrame:
        check = self.state.held_out
        assert check is not None
        rows = [("tuned", check.tuned), ("default", check.default),
                ("tuned - default", check.diff)]  # fmt: skip
        return pd.DataFrame(
            [{"measure": m, "estimate": e, "low": lo, "high": hi} for m, (e, lo, hi) in rows]
        ).assign(groups=check.groups)

    def _repr_html_(self) -> str:
        title = (
            f"{self.config.strategy} tuned for {self.rules.players} players: held-out mean "
            "place (deals never used while tuning)"
        )
        return _html(title, self.held_out)


@dataclass
class Advised:
    """An ``advise``: the tips shown, each measured, and the share of champion's edge.

    ``tips``: one row per tip in the order to follow them — ``advice`` (in words),
    ``instead`` (what the simple player does there), ``gain`` with ``gain_low`` and
    ``gain_high`` (places gained a round against the same player without the tip on fresh
    duplicate deals, with the 95 % interval), ``per_round`` (how often it applies a round
    in champion's games), ``changed`` (the share of rounds whose places it changes),
    ``rule`` (the table rule it exists for, if any), ``base`` (its gain under the rule
    book's base game, in words) and ``example`` (a position from a real game).
    ``recovered``: the share of champion's gain over the simple player that the tips
    together recover. ``tips_file`` plays them wherever a strategy is named.
    """

    table: AdviceTable
    tips_file: Path
    page: Path
    _text: str
    _scratch: tempfile.TemporaryDirectory[str] | None = field(default=None, repr=False)

    @property
    def tips(self) -> pd.DataFrame:
        return self.table.tips.drop(columns=["key"])

    @property
    def recovered(self) -> float:
        return self.table.recovered

    def text(self) -> str:
        """What ``president advise`` prints."""
        return self._text
