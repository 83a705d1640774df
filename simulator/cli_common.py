"""What the CLI commands share: the user-error type and option decorators."""

from __future__ import annotations

import click

from simulator.rules import Rules, RulesError, load_rules


class UserError(click.ClickException):
    """A mistake in the user's input: printed as one line, exit code 2."""

    exit_code = 2


def resolve_rules(spec: str) -> Rules:
    """``--rules NAME|FILE`` to Rules, or a UserError."""
    try:
        return load_rules(spec)
    except RulesError as exc:
        raise UserError(str(exc)) from None


def seed_option(func):  # type: ignore[no-untyped-def]
    """``--seed S``: the run's seed (integer)."""
    return click.option(
        "--seed", type=int, default=0, show_default=True, help="Seed of the random streams."
    )(func)
