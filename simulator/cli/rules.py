"""``president rules list|show``: the presets and the fully resolved rules."""

from __future__ import annotations

import click

from simulator.cli.common import complete_rules
from simulator.rules.files import load_rules, to_toml
from simulator.rules.presets import PRESETS


@click.group("rules")
def rules_group() -> None:
    """List the presets or show resolved rules."""


@rules_group.command("list")
def rules_list() -> None:
    """List the presets with a one-line description."""
    width = max(map(len, PRESETS))
    for name, (description, _) in PRESETS.items():
        click.echo(f"{name:<{width}}  {description}")


@rules_group.command("show")
@click.argument("spec", metavar="NAME|FILE", shell_complete=complete_rules)
@click.option(
    "--explain",
    is_flag=True,
    help="A comment above each key says what it means (and its default when it differs).",
)
def rules_show(spec: str, explain: bool) -> None:
    """Print the fully resolved rules of a preset or rules file as TOML.

    The output is itself a rules file: --rules reads it back to the same rules (with
    --explain too: the explanations are TOML comments). docs/rules.md has the full text
    of every option.
    """
    text = to_toml(load_rules(spec), title=f"rules resolved from {spec}", explain=explain)
    click.echo(text, nl=False)
