"""``president strategies``: every strategy that can be named, with its parameters."""

from __future__ import annotations

import click

from simulator.cli.common import players_option, rules_option
from simulator.rules.options import Rules
from simulator.runs.arguments import rules_of
from strategies import registry, shipped
from strategies.specs import ADVISED_TIPS, CHAMPION, CLAIRVOYANT


def strategy_lines() -> list[str]:
    """One line per strategy: name, description, parameters with their defaults."""
    width = max(len(name) for name in registry.names())
    lines = []
    for name in registry.names():
        spec = registry.get(name)
        shown = [p for p in spec.params if not p.name.startswith("tip")]
        params = ", ".join(f"{p.name}={p.default:g}" for p in shown)
        if len(shown) < len(spec.params):  # advised: 70 slots of tips, written by a tips file
            params += f", tip1 … tip{ADVISED_TIPS}: the tips of president advise's tips.toml"
        lines.append(f"{name:<{width}}  {spec.description}  [{params or 'no parameters'}]")
    return lines


def table_words(rules_spec: str, players: int | None) -> str:
    """The options that named the table, as typed: ``--rules R [--players N]``."""
    return f"--rules {rules_spec}" + (f" --players {players}" if players is not None else "")


def weights_lines(rules_spec: str, rules: Rules, players: int | None) -> list[str]:
    """``-v``: which of linear's weights the rules give, and the shipped sets."""
    weights = shipped.weights_for(rules)
    sets = ", ".join(s.name for s in shipped.shipped()) or "none"
    table = table_words(rules_spec, players)
    return [
        f"    weights under {table}: {weights.source} (sha256 {weights.digest});"
        " champion and clairvoyant play them in their playouts and prior",
        f"    shipped sets (the rules in force, else their preset, else the defaults): {sets}",
    ]


def search_lines(rules_spec: str, rules: Rules, players: int | None) -> list[str]:
    """``-v``, for the search players: the search settings the rules give."""
    search = shipped.search_for(rules)
    table = table_words(rules_spec, players)
    if not search:
        return [f"    search under {table}: the defaults above"]
    values = ", ".join(f"{key}={value:g}" for key, value in search.items())
    source = shipped.search_source(rules)
    return [f"    search under {table}: {values} ({source}), the others as above"]


@click.command("strategies")
@click.option("--verbose", "-v", is_flag=True, help="Also explain each parameter.")
@rules_option
@players_option
def strategies_command(verbose: bool, rules_spec: str, players: int | None) -> None:
    """List every available strategy: name, what it does, its parameters.

    Change a parameter with NAME:key=value,key=value wherever a strategy is named,
    e.g. --strategies control:strength=12,lowest. With -v, linear's line says which
    weights it plays under --rules (and --players): those tuned for these rules when they
    are shipped, else those of the preset they derive from, else the defaults listed;
    champion's and clairvoyant's lines say which search settings those rules give.
    """
    rules = rules_of(rules_spec, players)
    for name, line in zip(registry.names(), strategy_lines(), strict=True):
        click.echo(line)
        if verbose:
            params = registry.get(name).params
            for p in params:
                tuned = f", tuned in {p.bounds[0]:g} to {p.bounds[1]:g}" if p.bounds else ""
                click.echo(f"    {p.name} (default {p.default:g}{tuned}): {p.help}")
            named = [p.name for p in params if p.name in registry.KERNEL_ID_PARAMS]
            if named:
                click.echo(f"    kernel ids for {' and '.join(named)}: {registry.policy_ids()}")
            if name == shipped.SPEC.name:
                click.echo("\n".join(weights_lines(rules_spec, rules, players)))
            if registry.get(name).kernel_id in (CHAMPION, CLAIRVOYANT):
                click.echo("\n".join(search_lines(rules_spec, rules, players)))
