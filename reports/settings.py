"""The rules and a run's settings in words, for every page.

A reader must learn from the first screen what was played: which rule set (by its
preset's name, and what was changed), every option's value with what it means — the
meanings declared with the options of :class:`~simulator.rules.options.Rules` are the
one home of those — and what differs
from the rule book's defaults, highlighted. ``summary.json`` keeps no rule set name, so
it is found back: the preset the rules equal, or the one they are closest to.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from reports import html
from reports.html import Markup
from simulator.reference.exchange import clubs_three_leads
from simulator.rules.files import rules_from_mapping
from simulator.rules.options import Rules, RulesError, option_meanings
from simulator.rules.presets import PRESETS, preset

DEFAULTS = "the rule book's defaults"


def resolved(rules: Mapping[str, Any]) -> dict[str, Any]:
    """Every option of a run's rules (as summary.json gives them), those a run written
    before an option existed taking its default."""
    try:
        return rules_from_mapping(rules).to_dict()
    except RulesError:  # written by a later version: show what it says
        return dict(rules)


def rule_set(rules: Mapping[str, Any]) -> tuple[str, list[str]]:
    """The preset these rules are, or the closest one (fewest options changed; the
    defaults count as a candidate), and the options that differ from it."""
    given = resolved(rules)
    candidates = {name: preset(name).to_dict() for name in PRESETS} | {DEFAULTS: Rules().to_dict()}
    best = min(candidates, key=lambda name: len(_changes(given, candidates[name])))
    return best, _changes(given, candidates[best])


def _changes(given: Mapping[str, Any], base: Mapping[str, Any]) -> list[str]:
    return [k for k in given if k != "players" and given.get(k) != base.get(k)]


def rule_set_name(rules: Mapping[str, Any]) -> str:
    """``french``, or ``french with exchange changed`` — how the pages name a rule set."""
    name, changes = rule_set(rules)
    if not changes:
        return name
    return f"{name} with {', '.join(changes)} changed"


def in_words(key: str, value: Any) -> str:
    """An option's value as a reader writes it: yes/no, lists without brackets, none."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) if value else "none"
    if isinstance(value, dict) and set(value) <= {"top", "bottom"}:
        if not any(value.values()):
            return "none"
        return "; ".join(f"{side} {in_words(side, value.get(side, []))}" for side in value)
    if key == "target" and value == 0:
        return "none"
    return str(value)


def rules_table(variants: Mapping[str, Mapping[str, Any]]) -> str:
    """Every option, in words, for one rule set or several side by side (one column each),
    with its meaning; options that differ from the defaults are highlighted and say the
    default."""
    meanings = option_meanings()
    defaults = Rules().to_dict()
    given = {name: resolved(rules) for name, rules in variants.items()}
    keys = list(dict.fromkeys(k for rules in given.values() for k in rules))
    rows, changed = [], []
    for key in keys:
        default = defaults.get(key)
        differs = [rules.get(key) != default for rules in given.values()]
        changed.append(any(differs) and key in defaults)
        row: dict[str, object] = {"option": html.code(key)}
        for (name, rules), diff in zip(given.items(), differs, strict=True):
            shown = in_words(key, rules.get(key))
            row[name] = (
                Markup(f"<strong>{html.text(shown)}</strong>") if diff and key in defaults
                else shown
            )  # fmt: skip
        row["default"] = in_words(key, default) if changed[-1] else ""
        row["meaning"] = meanings.get(key, "")
        rows.append(row)
    frame = pd.DataFrame(rows)
    columns = [*given, "default", "meaning"]
    return html.table(
        frame, text_columns=columns, long_columns=["meaning"], changed=changed, prose=True
    )


def rules_section(title: str, variants: Mapping[str, Mapping[str, Any]]) -> str:
    """A heading naming the rule set(s), a line on how to read the table, the table."""
    return (
        f"<h3>Rules: {html.text(title)}</h3>\n"
        + html.paragraph(
            "Each option in words with what it means; options that differ from the rule "
            "book's defaults are highlighted, with the default beside them "
            "(docs/rules.md explains every option with an example).",
            note=True,
        )
        + rules_table(variants)
    )


def run_facts(summary: Mapping[str, Any], rows: int, clusters: int) -> list[tuple[str, str]]:
    """What a simulation run was, in words: (what, value) lines for the settings table."""
    rules = summary["rules"]
    lineup = list(summary.get("strategies", []))
    matches = int(summary.get("matches_played") or summary.get("matches") or 0)
    rounds = summary.get("rounds_played")
    k = summary.get("rounds_per_match")
    length = (
        f"to {rules.get('target')} points (at most {summary.get('max_rounds', '–'):,} rounds)"
        if rules.get("target")
        else f"of {k} rounds"
    )
    facts = [
        ("rule set", rule_set_name(rules)),
        ("players", str(rules["players"])),
        ("strategies by seat", seating(lineup)),
        ("matches", f"{matches:,}, each {length}"),
        ("rounds played", f"{rounds:,}" if isinstance(rounds, int) else "–"),
        ("rows read (one per player and round)", f"{rows:,}"),
        ("deals", deals(summary)),
        (
            "intervals",
            f"95 %, over {clusters} clusters (batches of whole "
            f"{'duplicate groups' if summary.get('duplicate') else 'matches'})",
        ),
        ("seed", str(summary.get("seed", "–"))),
        ("president-sim version", str(summary.get("version", "–"))),
    ]
    return facts


def seating(lineup: Sequence[str]) -> str:
    """``seat 0 lowest, seat 1 random, …``."""
    return ", ".join(f"seat {i} {s}" for i, s in enumerate(lineup)) or "–"


def deals(summary: Mapping[str, Any]) -> str:
    """How the cards were dealt, in words."""
    if summary.get("duplicate"):
        group = summary.get("group_matches", "–")
        return (
            f"duplicate: each group of {group} matches plays the same deals, the "
            "strategies turning one seat per match"
        )
    return "independent: every match shuffles its own deals"


def facts_table(facts: Sequence[tuple[str, str]]) -> str:
    """Two-column facts (what, value), left-aligned and wrapping on a phone."""
    frame = pd.DataFrame(facts, columns=["setting", "value"])
    return html.table(frame, text_columns=["value"], prose=True, labels=False)


LATER_LEADER = {  # opener → who leads the first trick of rounds 2+, and what that makes of "led"
    "scum": (
        "the Scum of the previous round (its last place) leads",
        "the leader of a later round is most often the table's weakest player, who has just "
        "given his best cards away, so 'led' rounds end worse because of who leads them, "
        "not because leading is bad",
    ),
    "president": (
        "the President of the previous round (its first place) leads",
        "the leader of a later round is most often the table's strongest player, who has "
        "just received the best cards, so 'led' rounds end better because of who leads "
        "them, not because leading is worth that much",
    ),
}
LEFT_OF_DEALER = {  # opener = "left_of_dealer": the dealer decides who leads
    "scum": "the player left of the dealer, who is the previous round's Scum",
    "president": "the player left of the dealer, who is the previous round's President",
}


def who_leads(rules: Mapping[str, Any]) -> str:
    """Who leads the first trick of each round under these rules, and what that does to
    a comparison of the leaders with the others: the leader is chosen by last round's
    place, so "led" rounds measure the leader's strength, not the lead's worth."""
    given = resolved(rules)
    try:
        known = rules_from_mapping(rules)
    except RulesError:  # written by a later version: the 3 of clubs as by default
        known = Rules()
    first = (
        "the holder of the 3 of clubs" if clubs_three_leads(known, 0)
        else "the player left of a dealer drawn at random"
    )  # fmt: skip
    if clubs_three_leads(known, 1):
        return (
            f"Who leads: in every round {first} (after the exchange) leads, a player the "
            "rules do not choose by his place, so 'led' against 'did not lead' is the lead's "
            "own worth."
        )
    opener = given.get("opener", "scum")
    text = f"Who leads: in the first round of a match {first} leads; from round 2 on "
    if opener in LATER_LEADER:
        who, why = LATER_LEADER[opener]
        return (
            f"{text}{who}: {why}. The first round, whose leader is chosen by chance, shows "
            "what leading itself is worth."
        )
    dealer = given.get("dealer", "scum")
    if dealer not in LEFT_OF_DEALER:
        return (
            f"{text}the player left of the dealer leads, the deal passing round the table: the "
            "leader is not chosen by his place, so 'led' against 'did not lead' is the lead's "
            "own worth."
        )
    return (
        f"{text}{LEFT_OF_DEALER[dealer]}, leads: his seat next to last round's "
        f"{dealer.title()}, not chance, picks him, so compare with the first round, whose "
        "leader is chosen by chance, before reading a later round's gap as the lead's worth."
    )
