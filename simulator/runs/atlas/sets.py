"""The rule sets of ``president atlas``: the default ones, derived from the rule spec, and
those ``--rules`` names.

The full atlas (``--all``, around ``--base PRESET``) holds the presets; the base
with each option of :data:`~simulator.rules.options.CHOICES` and
:data:`~simulator.rules.options.BOOL_KEYS` changed alone to each of its other allowed
values, where the result is legal (the rule spec's own checks decide); the tables of
``examples/rules/``; and the base at 3, 5 and 6 players. Nothing there lists an option
by hand: a new option of the spec enters the full atlas on its own.

The whole ladder over every one of those does not fit in the default atlas's time (issue
39: at most 45 minutes on 2 cores), so the default atlas keeps the presets, the options
players argue about most (:data:`ARGUED`: changed alone, and the tables of
:data:`ARGUED_FILES`), the exchange's absence and the number of players.

The exchange's absence is the base with ``exchange = []`` (:func:`single_changes`), not
``examples/rules/french-no-exchange.toml``: that table is ``french`` without it, so
around another base it would change the whole game, not the exchange alone. Around
``french`` the two are the same rules, measured once.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

import simulator
from simulator.errors import PresidentError
from simulator.rules.files import load_rules
from simulator.rules.options import ARGUED, BOOL_KEYS, CHOICES, KEYS, Points, Rules, RulesError
from simulator.rules.presets import PRESET_NAMES, preset

OTHER_PLAYERS = (3, 5, 6)  # the base at these table sizes
DEFAULT_RULES = Rules()  # the spec's defaults, which single_change resets an option to
# the default atlas's tables of examples/rules/ (daifugo's house rules); its options changed
# alone are the rule spec's ARGUED, the exchange's absence among them (the others: --all)
ARGUED_FILES = ("daifugo-without-suits.toml",)
NO_EXCHANGE = ("exchange", ())  # the exchange's absence: its one change, not a spec choice
EXAMPLES = Path(simulator.__file__).resolve().parent.parent / "examples" / "rules"


class AtlasError(PresidentError):
    """An atlas that cannot be run as asked (rule sets, field, sizes, folder)."""


@dataclass(frozen=True)
class RuleSet:
    """One rule set of the atlas: its name, what differs from the base in words, its rules."""

    name: str
    change: str
    rules: Rules


def shown(value: object) -> str:
    """An option's value as a rules file writes it (``true``, ``rotate``, ``[2, 1]``)."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, Points):
        return f"{{top = {shown(value.top)}, bottom = {shown(value.bottom)}}}"
    if isinstance(value, tuple):
        return "[" + ", ".join(map(str, value)) + "]"
    return str(value)


def change_in_words(rules: Rules, base: Rules) -> str:
    """What differs from ``base``: ``key = value`` for each option changed, comma-separated
    ("" for the base itself)."""
    return ", ".join(
        f"{key} = {shown(getattr(rules, key))}"
        for key in KEYS
        if getattr(rules, key) != getattr(base, key)
    )


def single_changes(base: Rules) -> list[tuple[str, object]]:
    """Every (option, value) of the rule spec's choices and booleans other than the base's
    own value, in the spec's order; then the exchange's absence (``exchange = []``), which
    the spec lists as no choice, for a base that has one."""
    out: list[tuple[str, object]] = []
    for key in KEYS:
        values = CHOICES.get(key) or ((False, True) if key in BOOL_KEYS else ())
        out += [(key, v) for v in values if v != getattr(base, key)]
    if base.exchange:
        out.append(NO_EXCHANGE)
    return out


def default_rule_sets(base_name: str = "french", every: bool = False) -> list[RuleSet]:
    """The default atlas around the preset ``base_name``, or with ``every`` the full one
    (see the module docstring): the base first, since every other rule set is paired
    with it."""
    base = base_rules(base_name)
    sets = [RuleSet(base_name, "", base)]
    sets += [RuleSet(p, change_in_words(preset(p), base), preset(p))
             for p in PRESET_NAMES if p != base_name]  # fmt: skip
    for key, value in single_changes(base):
        rules = single_change(base, key, value)
        if rules is None or not (every or argued(rules, key, base)):
            continue
        sets.append(RuleSet(f"{base_name}: {key}={shown(value)}", change_in_words(rules, base),
                            rules))  # fmt: skip
    for path in sorted(EXAMPLES.glob("*.toml")):
        if every or path.name in ARGUED_FILES:
            table = file_rule_set(path, f"examples/rules/{path.name}", base)
            if all(table.rules != s.rules for s in sets):  # the same rules are measured once
                sets.append(table)
    for players in OTHER_PLAYERS:
        if players != base.players:
            rules = base.with_options(players=players)
            sets.append(RuleSet(f"{base_name}: {players} players",
                                change_in_words(rules, base), rules))  # fmt: skip
    return sets


def single_change(base: Rules, key: str, value: object) -> Rules | None:
    """``base`` with ``key`` changed to ``value``. Where the rule spec refuses that change
    alone because another option of the base leans on ``key`` (``uecda``'s revolution by a
    sequence of five, without sequences), the same change with that option back at its
    default, the first such reset the spec accepts (both changes are named in the rule
    set's words); None where no single reset makes it legal."""
    try:
        return dataclasses.replace(base, **{key: value})
    except RulesError:
        pass
    for other in KEYS:
        default = getattr(DEFAULT_RULES, other)
        if other == key or getattr(base, other) == default:
            continue
        try:
            return dataclasses.replace(base, **{key: value, other: default})
        except RulesError:
            continue
    return None


def argued(rules: Rules, key: str, base: Rules) -> bool:
    """Whether the default atlas measures this single change: an option players argue
    about most (:data:`ARGUED`), unless it would give suits to a base that plays without
    them (a table with sequences or the lock is another game, Daifugō, measured around
    ``--base uecda``, where players argue about them)."""
    return key in ARGUED and (base.suited or not rules.suited)


def base_rules(name: str) -> Rules:
    """The preset ``--base`` names (an AtlasError in one line otherwise)."""
    if name not in PRESET_NAMES:
        raise AtlasError(f"--base {name!r} is not a preset (allowed: {', '.join(PRESET_NAMES)})")
    return preset(name)


def file_rule_set(path: Path, name: str, base: Rules) -> RuleSet:
    """A rules file as a rule set."""
    rules = load_rules(path)
    return RuleSet(name, change_in_words(rules, base), rules)


def named_rule_sets(specs: list[str], base_name: str) -> list[RuleSet]:
    """The rule sets ``--rules`` names (a preset or a rules file each), the base first
    when it is among them; an AtlasError in one line for one that is neither."""
    base = base_rules(base_name)
    out = []
    for spec in specs:
        if spec in PRESET_NAMES:
            out.append(RuleSet(spec, change_in_words(preset(spec), base), preset(spec)))
            continue
        path = Path(spec)
        if not path.is_file():
            raise AtlasError(
                f"--rules {spec!r} is neither a preset nor a rules file (allowed: "
                f"{', '.join(PRESET_NAMES)}, or a path to a .toml file)"
            )
        try:
            out.append(file_rule_set(path, spec, base))
        except RulesError as exc:
            raise AtlasError(f"--rules {spec}: {exc}") from None
    names = [s.name for s in out]
    if len(set(names)) != len(names):
        raise AtlasError(f"--rules names a rule set twice ({', '.join(names)}; allowed: each once)")
    return sorted(out, key=lambda s: s.name != base_name)
