"""The ``Next:`` lines that close a run: commands that go on from it, as the user typed it.

A suggested command repeats the options the user typed for the run (``--rules``,
``--players``, ``--strategies``, the sizes…) that the suggested command shares with
``simulate`` (:data:`SHARED`), so that it runs as printed and plays the same table: a
run under ``spade`` with 5 players is not followed by a compare of ``french`` with 4.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import click
from click.core import ParameterSource

# where the output goes, not what is played: a suggested command names its own
NOT_CARRIED = frozenset({"out_dir", "resume_dir", "with_report"})
# simulate's parameters that compare and tournament have too, the same option meaning the
# same (a tournament's --matches is per table and its --strategies distinct names: they
# are not carried). Written out, not read from the commands, whose modules load pandas;
# tests/cli/test_messages.py checks it against click's own commands.
SHARED = {
    "compare": ("players", "strategy_list", "matches", "rounds", "rounds_per_match", "seed",
                "workers", "engine", "quiet"),
    "tournament": ("rules_spec", "players", "rounds_per_match", "max_rounds", "seed",
                   "workers", "engine", "quiet"),
}  # fmt: skip
TOURNAMENT_STRATEGIES = "lowest,random,control,planner,rules-aware"
WIDTH = 80  # a suggested command wraps to fit a terminal of this width
OTHER_RULES = {"scum": "french"}  # the rule set a compare sets beside the run's (else scum)


def typed_options(ctx: click.Context) -> dict[str, object]:
    """The run's parameters typed on the command line (defaults are not repeated)."""
    return {
        name: value
        for name, value in ctx.params.items()
        if ctx.get_parameter_source(name) is ParameterSource.COMMANDLINE and name not in NOT_CARRIED
    }


def carried(ctx: click.Context, typed: dict[str, object], shared: tuple[str, ...]) -> list[str]:
    """The ``typed`` options among ``shared`` (parameter names), as typed; each option
    with its value is one item (a line may wrap between items, never inside)."""
    items: list[str] = []
    for param in ctx.command.params:
        if param.name not in shared or param.name not in typed:
            continue
        value = typed[param.name]
        if not isinstance(param, click.Option) or not param.is_flag:
            items.append(f"{param.opts[0]} {shlex.quote(str(value))}")
        elif value:
            items.append(param.opts[0])
    return items


def command_lines(items: list[str], indent: int = 4) -> list[str]:
    """``president …`` as lines of at most :data:`WIDTH` columns, continued with a
    backslash (a shell reads them as one command when pasted)."""
    lines = [" " * indent + items[0]]
    for i, item in enumerate(items[1:], 2):
        room = WIDTH - (2 if i < len(items) else 0)  # " \\" ends a line that goes on
        if len(lines[-1]) + 1 + len(item) > room:
            lines[-1] += " \\"
            lines.append(" " * (indent + 4) + item)
        else:
            lines[-1] += " " + item
    return lines


def compare_rules(spec: str) -> list[str]:
    """``--rules THE_RUN'S --rules ANOTHER``: the run's rule set beside a second one."""
    return [f"--rules {shlex.quote(spec)}", f"--rules {OTHER_RULES.get(spec, 'scum')}"]


def tournament_strategies(typed: dict[str, object]) -> str:
    """The run's strategies, each once, when there are two or more; else a default field."""
    from strategies.registry import split_names  # the command ran: its registry is loaded

    names = [s for s in split_names(str(typed.get("strategy_list") or "")) if s]
    distinct = list(dict.fromkeys(names))
    return ",".join(distinct) if len(distinct) > 1 else TOURNAMENT_STRATEGIES


def next_steps(ctx: click.Context, out_dir: Path | None, report: Path | None) -> list[str]:
    """What to run next, closing a ``simulate``: each a command that works as shown."""
    typed = typed_options(ctx)
    if report is not None:
        first = [f"  read the report: open {report} in a browser"]
    elif out_dir is not None:
        first = [
            f"  the report of this run ({out_dir / 'report.html'}, tables and figures with "
            "95 % intervals):",
            f"    president report {out_dir}",
        ]
    else:
        first = [
            "  keep the rounds and write their report (tables and figures, 95 % intervals):",
            *command_lines(
                [
                    "president simulate",
                    *carried(ctx, typed, tuple(typed)),
                    "--out runs/mine",
                    "--report",
                ]
            ),
        ]
    compare = [
        "president compare",
        *compare_rules(str(ctx.params["rules_spec"])),
        *carried(ctx, typed, SHARED["compare"]),
        "--out runs/compare",
    ]
    from simulator.runs.engines import LOCAL  # loaded by the run this closes

    local = {k: v for k, v in typed.items() if k != "engine" or v in LOCAL}
    tournament = [
        "president tournament",
        f"--strategies {tournament_strategies(typed)}",
        *carried(ctx, local, SHARED["tournament"]),  # its tables play on this machine
    ]
    return [
        "",
        "Next:",
        *first,
        "  the same deals under two rule sets, side by side:",
        *command_lines(compare),
        "  rank strategies against each other on duplicate deals:",
        *command_lines(tournament),
    ]
