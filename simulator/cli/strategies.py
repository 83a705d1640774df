"""``president strategies``: every strategy that can be named, with its parameters."""

from __future__ import annotations

import click

from strategies import registry


def strategy_lines() -> list[str]:
    """One line per strategy: name, description, parameters with their defaults."""
    width = max(len(name) for name in registry.names())
    lines = []
    for name in registry.names():
        spec = registry.get(name)
        params = ", ".join(f"{p.name}={p.default:g}" for p in spec.params)
        lines.append(f"{name:<{width}}  {spec.description}  [{params or 'no parameters'}]")
    return lines


@click.command("strategies")
@click.option("--verbose", "-v", is_flag=True, help="Also explain each parameter.")
def strategies_command(verbose: bool) -> None:
    """List every available strategy: name, what it does, its parameters.

    Change a parameter with NAME:key=value,key=value wherever a strategy is named,
    e.g. --strategies control:strength=12,lowest.
    """
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
