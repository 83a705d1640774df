"""What the CLI commands share: the user-error type and option decorators."""

from __future__ import annotations

import click

from simulator.reference.match import MAX_ROUNDS
from simulator.rules.files import load_rules
from simulator.rules.options import Rules, RulesError
from simulator.runs.job import DEFAULT_ROUNDS_PER_MATCH


class UserError(click.ClickException):
    """A mistake in the user's input: printed as one line, exit code 2."""

    exit_code = 2


def resolve_rules(spec: str) -> Rules:
    """``--rules NAME|FILE`` to Rules, or a UserError."""
    try:
        return load_rules(spec)
    except RulesError as exc:
        raise UserError(str(exc)) from None


def rules_option(func):  # type: ignore[no-untyped-def]
    """``--rules NAME|FILE``: a preset name or a TOML rules file (default ``french``)."""
    return click.option("--rules", "rules_spec", default="french", show_default=True,
                        metavar="NAME|FILE", help="A preset name or a TOML rules file "
                        "(docs/rules.md).")(func)  # fmt: skip


def seed_option(func):  # type: ignore[no-untyped-def]
    """``--seed S``: the run's seed (integer)."""
    return click.option(
        "--seed", type=int, default=0, show_default=True, help="Seed of the random streams."
    )(func)


def players_option(func):  # type: ignore[no-untyped-def]
    """``--players N``: the number of players, overriding the rules'."""
    return click.option("--players", type=int, default=None,
                        help="Number of players, 3 to 8 (default: the rules').")(func)  # fmt: skip


def strategies_option(func):  # type: ignore[no-untyped-def]
    """``--strategies a,b,…``: one strategy for all seats or one per seat."""
    return click.option("--strategies", "strategy_list", default=None,
                        help="Strategies, one for all seats or one per seat, comma-separated "
                             "(default: a mix of the built-ins).")(func)  # fmt: skip


def rounds_per_match_option(func):  # type: ignore[no-untyped-def]
    """``--rounds-per-match K``: the length of a match when the rules have no target."""
    return click.option("--rounds-per-match", type=int, default=None,
                        help=f"Rounds per match when the rules have no target (default "
                        f"{DEFAULT_ROUNDS_PER_MATCH}); under a target a match lasts until it "
                        "is won.")(func)  # fmt: skip


def max_rounds_option(func):  # type: ignore[no-untyped-def]
    """``--max-rounds N``: where a match under a points target is cut."""
    return click.option("--max-rounds", type=int, default=MAX_ROUNDS, show_default=True,
                        help="Longest match under a points target.")(func)  # fmt: skip
