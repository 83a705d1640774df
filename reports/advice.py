"""The advice of ``president advise``: its table, its terminal text and its page.

Worths are shown as places *gained* per round (the simple player's mean place minus the
tipped player's, on the same deals), so that a good tip reads positive.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from reports import html
from reports.numbers import format_ci, plus_minus
from simulator.runs.advice.examples import example, per_round
from simulator.runs.advice.measure import Worth
from simulator.runs.advice.mine import Field
from simulator.runs.advice.run import Advice, Found, Say, advise
from simulator.runs.advice.words import simple_words, tip_words
from strategies.advice import PLAYS

RULE_PLAYS = {"ender": "a table rule that ends the trick", "jacks": "jack-back (jacks reverse the order)",
              "revolt": "the revolution of a four of a kind"}  # fmt: skip


def gain(w: Worth) -> tuple[float, float, float]:
    """A worth as places gained per round: ``(estimate, low, high)``."""
    return -w.estimate, -w.high, -w.low


@dataclass(frozen=True)
class AdviceTable:
    """The shown tips as a table, champion's edge and the share the tips recover."""

    tips: pd.DataFrame
    champion: Worth
    together: Worth
    rules_name: str

    @property
    def recovered(self) -> float:
        """The share of champion's edge over the simple player the tips together recover."""
        return self.together.estimate / self.champion.estimate if self.champion.estimate else 0.0


def advice_table(found: Found, advice: Advice, out: Path | None, rules_name: str) -> AdviceTable:
    """One row per shown tip: its words, what the simple player does instead, its gain
    against the same player without it, how often it applies a round in champion's
    games, the share of rounds whose places it changes, the rule it comes from, and an
    example position."""
    rounds = advice.mined * advice.rounds_per_match
    field = Field(advice.rules, advice.seed, advice.rounds_per_match, simple=advice.simple)
    rows = []
    for i, tip in enumerate(found.tips, start=1):
        g = gain(found.worths[tip.key])
        path = out / "examples" / f"tip-{i}.json" if out is not None else None
        seen = example(found.decisions, tip, field, path)
        play = PLAYS[tip.play - 1][0]
        rows.append({
            "tip": i,
            "advice": tip_words(tip),
            "instead": f"the simple player would {simple_words(tip)}",
            "gain": g[0], "gain_low": g[1], "gain_high": g[2],
            "per_round": per_round(found.decisions, tip, rounds),
            "changed": found.worths[tip.key].changed,
            "rule": RULE_PLAYS.get(play, ""),
            "base": _on_base(found.worths.get(f"base/{tip.key}")),
            "example": seen,
            "key": tip.key,
        })  # fmt: skip
    frame = pd.DataFrame(rows, columns=["tip", "advice", "instead", "gain", "gain_low",
                                        "gain_high", "per_round", "changed", "rule", "base", "example", "key"])  # fmt: skip
    return AdviceTable(frame, found.worths["champion"], found.worths["together"], rules_name)


def advice_text(t: AdviceTable, tips_path: str, page: str | None) -> str:
    """What the terminal prints: each tip in words with its worth, then the summary."""
    lines = [f"Tips for {t.rules_name}, in the order to follow them (the first that applies)",
             "Each gain: against the same player following the other tips only, on the same fresh deals",
             ""]  # fmt: skip
    if t.tips.empty:
        lines.append("No tip gained places with an interval that excludes 0.")
    for row in t.tips.itertuples():
        worth = plus_minus(row.gain, row.gain_low, row.gain_high, 3, signed=True)
        lines.append(f"{row.tip}. {row.advice}")
        lines.append(f"   ({row.instead}.) {worth} places a round; in champion's games it "
                     f"arises {row.per_round:.2f} times a round; it changes the places of "
                     f"{row.changed:.1%} of rounds.")  # fmt: skip
        if row.rule:
            lines.append(f"   Only because of {row.rule}.")
        if row.base:
            lines.append(f"   {row.base}")
    c, tg = gain(t.champion), gain(t.together)
    lines += [
        "",
        f"champion gains {plus_minus(*c, 3, signed=True)} places a round over the simple player;",
        f"the tips together gain {plus_minus(*tg, 3, signed=True)}: {t.recovered:.0%} of it.",
        f"Play them: --strategies {tips_path}",
    ]
    if page:
        lines.append(f"The page: {page}")
    return "\n".join(lines) + "\n"


def advice_page(t: AdviceTable, tips_path: str) -> str:
    """The self-contained page: the tips, how they were found and measured, examples."""
    c, tg = gain(t.champion), gain(t.together)
    summary = html.box(html.paragraph(
        f"The search player champion gains {format_ci(*c, 3)} places a round over the simple "
        f"player (rules-aware) at a table of simple players. The {len(t.tips)} tips below, "
        f"followed together, gain {format_ci(*tg, 3)}: {t.recovered:.0%} of champion's edge."
    ))  # fmt: skip
    shown = pd.DataFrame({
        "#": t.tips["tip"].astype(str),
        "tip": t.tips["advice"],
        "instead": t.tips["instead"],
        "places gained a round": [format_ci(r.gain, r.gain_low, r.gain_high, 3)
                                  for r in t.tips.itertuples()],
        "arises, a round": [f"{v:.2f}" for v in t.tips["per_round"]],
        "rounds it changes": [f"{v:.1%}" for v in t.tips["changed"]],
        "only because of": t.tips["rule"].replace("", "–"),
        "under the base game": t.tips["base"].replace("", "–"),
    })  # fmt: skip
    tips = html.table(shown, text_columns=["tip", "instead", "only because of", "under the base game"],
                      long_columns=["tip", "instead"], prose=True)  # fmt: skip
    examples = "".join(_example(r) for r in t.tips.itertuples())
    how = html.paragraph(
        "How the tips were found: champion played against the simple player and each of "
        "its decisions was recorded with what a person sees at the table (cards held, the "
        "card to beat, the others' cards…). Where a kind of play (pass, weakest cards, "
        "strongest cards…) differs from the simple player's move, small decision trees "
        "(two questions deep) learnt when champion makes it. Each candidate was played by "
        "the simple player following it, against the same player without it, on duplicate "
        "deals; the best were kept one by one while they still added. The figures above "
        "come from fresh deals, not the ones the choice was made on: each tip's gain is "
        "against the same player without it (the simple player following the other tips: "
        "a tip that keeps another from spoiling a good move is worth what it saves), and "
        "a tip whose interval holds 0 there is not shown. Card strengths name the normal order; under a "
        "reversed order (a revolution) read them reversed. The first tip that applies is "
        "the one to follow.",
    )
    play = html.paragraph("Play the tips yourself: ", html.code(f"--strategies {tips_path}"),
                          " (any command that takes strategies).")  # fmt: skip
    sections = [("summary", "The tips", summary + tips + play), ("examples", "Examples", examples),
                ("how", "How they were found and measured", how)]  # fmt: skip
    return html.page(f"How to play: {t.rules_name}", sections,
                     lead="Tips mined from champion's decisions, each measured")  # fmt: skip


def _on_base(w: Worth | None) -> str:
    """What a tip gains under the rule book's base game, in words ("" when these rules are
    the base game)."""
    if w is None:
        return ""
    g = plus_minus(*gain(w), 3, signed=True)
    if w.high < 0:
        return f"Under the base game it gains {g} too."
    return f"Under the base game it gains {g}: a tip of these rules."


def _example(row: object) -> str:
    seen = row.example
    if not seen:
        return ""
    facts = [f"Your hand (seat {seen['seat']}): {seen['hand']}", f"To beat: {seen['to_beat']}",
             f"Cards held by the others: {seen['others']}",
             f"champion played: {seen['move']} ({seen['where']})"]  # fmt: skip
    replay = (html.paragraph("Replay it: ", html.code(f"president replay {seen['replay']}"))
              if "replay" in seen else "")  # fmt: skip
    return f"<h3>Tip {row.tip}</h3>\n" + html.paragraph(row.advice) + html.bullets(facts) + replay


def advise_and_write(
    advice: Advice, out: Path, rules_name: str, say: Say
) -> tuple[AdviceTable, Found]:
    """Run (or resume) ``president advise`` in ``out`` and write its page there: what the
    command and the Python API share."""
    found = advise(advice, out, say)
    table = advice_table(found, advice, out, rules_name)
    (out / "advice.html").write_text(advice_page(table, found.tips_path), encoding="utf-8")
    return table, found
