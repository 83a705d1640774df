"""The jobs of ``president compare``: one run per rule set, on the same matches and deals.

Every variant plays the same number of matches with the same seed and strategies, so
match m of every variant starts from the same shuffle and first dealer (common random
numbers); rule sets with a scoring target play those matches to their own length.

A compare with ``--out OUT`` is resumable like a run: ``OUT/manifest.json`` lists the
variants and their jobs before anything is played, and each variant's run in
``OUT/runs/NAME/`` is a resumable run, so an interrupted compare is finished by
``president compare --resume OUT`` or by the same command run again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from simulator import __version__
from simulator.rules.options import Rules, RulesError
from simulator.rules.presets import PRESETS
from simulator.runs.atlas.sets import RuleSet, change_in_words
from simulator.runs.claims import (
    COMPARE_FORMAT,
    MANIFEST_FILE,
    claim,
    free_sibling,
    held_by_another,
    manifest_in,
    write_json_atomic,
)
from simulator.runs.folder import job_in
from simulator.runs.job import (
    DEFAULT_ROUNDS_PER_MATCH,
    SimConfig,
    SimulationError,
    check_sizes,
    default_strategies,
    make_config,
    matches_wanted,
)
from simulator.runs.simulate import Progress, resume, run
from simulator.runs.summary import RunResult
from strategies.specs import StrategyError

if TYPE_CHECKING:
    import pandas as pd

    from simulator.runs.atlas.batches import Play
    from simulator.runs.atlas.batches import Progress as AtlasProgress
    from simulator.runs.atlas.play import AtlasSettings

RUNS_DIR = "runs"  # OUT/runs/NAME: each variant's run


def variant_names(specs: Sequence[str]) -> list[str]:
    """A short, unique folder-safe name per ``--rules``: the preset, or the file's stem."""
    names: list[str] = []
    for spec in specs:
        base = spec if spec in PRESETS else Path(spec).stem
        name, k = base, 2
        while name in names:
            name, k = f"{base}-{k}", k + 1
        names.append(name)
    return names


def variant_configs(
    variants: Sequence[tuple[str, Rules]],
    players: int | None,
    strategy_names: Sequence[str] | None,
    seed: int,
    matches: int | None,
    rounds: int | None,
    rounds_per_match: int | None,
) -> list[SimConfig]:
    """One job per ``(name, rules)``, all with the same matches, seed and strategies.

    ``--rounds`` becomes matches of ``--rounds-per-match`` rounds, the same number in every
    variant; each job is validated as ``president simulate`` validates its own.
    """
    if len(variants) < 2:
        raise SimulationError(
            f"compare needs at least two --rules (got {len(variants)}): e.g. "
            "president compare --rules french --rules spade"
        )
    check_sizes(matches, rounds, rounds_per_match)
    k = rounds_per_match or DEFAULT_ROUNDS_PER_MATCH
    wanted = matches_wanted(matches, rounds, k)
    configs = []
    for name, rules in variants:
        try:
            if players is not None:
                rules = rules.with_options(players=players)
            names = list(strategy_names or default_strategies(rules.players))
            configs.append(
                make_config(
                    rules, names, seed, matches=wanted, rounds_per_match=None if rules.target else k
                )
            )
        except (RulesError, SimulationError, StrategyError) as exc:
            raise SimulationError(f"--rules {name}: {exc}") from None
    if len({c.rules.players for c in configs}) > 1:
        raise SimulationError(
            "the rule sets have different numbers of players (allowed: the same, or --players N)"
        )
    return configs


# ---------------------------------------------------------------- the compare's folder


@dataclass(frozen=True)
class Variant:
    """One rule set of a compare: its name (the folder ``OUT/runs/NAME``), the ``--rules``
    it was given as, and its job."""

    name: str
    spec: str
    config: SimConfig


def variants_of(specs: Sequence[str], configs: Sequence[SimConfig]) -> list[Variant]:
    """The variants of ``--rules`` given in order (configs from :func:`variant_configs`)."""
    return [
        Variant(name, spec, config)
        for name, spec, config in zip(variant_names(specs), specs, configs, strict=True)
    ]


def _manifest(variants: Sequence[Variant], complete: bool) -> dict[str, Any]:
    return {
        "format": COMPARE_FORMAT,
        "version": __version__,
        "variants": [
            {"name": v.name, "rules": v.spec, "config": v.config.to_json()} for v in variants
        ],
        "complete": complete,
    }


def _same_job(found: dict[str, Any], variants: Sequence[Variant]) -> bool:
    """Whether a compare manifest holds these variants: the same names and jobs, in order
    (the ``--rules`` text may differ: a file named from another folder is the same job)."""
    mine = _manifest(variants, False)["variants"]
    theirs = found.get("variants")
    return isinstance(theirs, list) and [(v["name"], v["config"]) for v in mine] == [
        (v.get("name"), v.get("config")) if isinstance(v, dict) else None for v in theirs
    ]


def describe(variants: Sequence[Variant]) -> str:
    """``french, scum; 1,000 matches each, seed 0``: a compare in a few words."""
    config = variants[0].config
    names = ", ".join(v.name for v in variants)
    return f"{names}; {config.matches:,} matches each, seed {config.seed}"


def prepare_compare(out: Path, variants: Sequence[Variant]) -> bool:
    """Make ``out`` the folder of this compare; True when it already held it (the runs in
    ``out/runs/`` are then resumed, not refused).

    An absent or empty folder gets the compare's manifest; a folder holding this very
    compare (the same command run again) is taken up; anything else is refused with the
    command that works.
    """
    found = manifest_in(out) if out.is_dir() else None
    if found is not None and found.get("format") == COMPARE_FORMAT:
        if _same_job(found, variants):
            _check_version(found, out)
            return True
        theirs = _variants_in(found, out)
        raise SimulationError(
            f"--out {out} holds another compare ({describe(theirs)}): president compare "
            f"--resume {out} finishes it (for this one, the same command with an empty or new "
            f"folder, e.g. --out {free_sibling(out)})"
        )
    claim(out, "compare")
    try:
        write_json_atomic(out / MANIFEST_FILE, _manifest(variants, False))
    except OSError as exc:
        raise SimulationError(f"--out {out} is not writable: {exc.strerror}") from None
    return False


def reopen_compare(out: Path) -> list[Variant]:
    """The variants of the compare in ``out`` (``--resume OUT``), from its manifest."""
    found = manifest_in(out) if out.is_dir() else None
    if found is None or found.get("format") != COMPARE_FORMAT:
        what = "no such folder" if not out.is_dir() else "it holds no compare"
        what = held_by_another(out, found, "compare") or f"--resume {out}: {what}"
        raise SimulationError(
            f"{what} (a new compare: president compare --rules french "
            f"--rules scum --out {free_sibling(out)})"
        )
    _check_version(found, out)
    return _variants_in(found, out)


def finish_compare(out: Path, variants: Sequence[Variant]) -> None:
    """Mark the compare in ``out`` complete (its page and numbers are written)."""
    write_json_atomic(out / MANIFEST_FILE, _manifest(variants, True))


def _variants_in(found: dict[str, Any], out: Path) -> list[Variant]:
    """The variants a compare manifest lists, each job checked as the command line would."""
    try:
        variants = [
            Variant(v["name"], v["rules"], SimConfig.from_json(v["config"]))
            for v in found["variants"]
        ]
    except (KeyError, TypeError) as exc:
        raise SimulationError(f"{out}/{MANIFEST_FILE} is malformed ({exc!r})") from None
    except SimulationError as exc:
        raise SimulationError(f"{out}/{MANIFEST_FILE}: {exc}") from None
    if len(variants) < 2:
        raise SimulationError(f"{out}/{MANIFEST_FILE} lists fewer than two variants")
    return variants


def _check_version(found: dict[str, Any], out: Path) -> None:
    if found.get("version") != __version__:
        raise SimulationError(
            f"{out} was written by president-sim {found.get('version')}, this is "
            f"{__version__} (allowed: finish it with the version that started it)"
        )


def play_variant(
    variant: Variant, out: Path, workers: int, progress: Progress | None, engine: str = "numba"
) -> tuple[RunResult, list[str]]:
    """The variant's run in ``out/runs/NAME`` on ``engine``: played, or resumed when it was
    started (a finished one is only checked); with the notes of parts computed again.

    The run's own advice to resume it becomes the compare's: resuming the compare
    resumes the variant and builds the comparison too; an error names the variant.
    """
    path = out / RUNS_DIR / variant.name
    try:
        if not (path / MANIFEST_FILE).exists():
            return run(variant.config, path, workers, progress, engine), []
        if job_in(path) != variant.config:
            raise SimulationError(
                f"{path} holds another run than variant {variant.name}'s: move it away, then "
                f"president compare --resume {out}"
            )
        folder, result = resume(path, workers, progress, engine)
    except SimulationError as exc:
        own = f"president simulate --resume {path}"
        message = str(exc).replace(own, f"president compare --resume {out}")
        raise SimulationError(f"variant {variant.name}: {message}") from None
    except StrategyError as exc:
        raise StrategyError(f"variant {variant.name}: {exc}") from None
    return result, list(folder.dropped)


# ---------------------------------------------------------------- compare --skill


def skill_settings(variants: Sequence[Variant]) -> AtlasSettings:
    """The atlas's settings for ``compare --skill``: its field, adaptive sizes and cap,
    with the compare's seed."""
    from simulator.runs.atlas.play import AtlasSettings  # pandas: only for --skill

    return AtlasSettings(seed=variants[0].config.seed)


def variant_skill(
    variants: Sequence[Variant], progress: AtlasProgress | None = None, play: Play | None = None
) -> pd.DataFrame:
    """``compare --skill``: the atlas's skill measures for the compared rule sets
    (:func:`simulator.runs.atlas.batches.skill_rows`, the rows of ``atlas.parquet``), each named
    as its variant, the first variant the base every other is paired with; ``play``: how
    a batch's tables are played (default: this machine's kernel threads)."""
    from simulator.runs.atlas.batches import skill_rows  # pandas: only when --skill asks for it

    return skill_rows(skill_rule_sets(variants), skill_settings(variants), progress, play=play)


def check_skill(variants: Sequence[Variant]) -> None:
    """Refuse, before anything is played, a ``--skill`` the atlas cannot measure (an
    AtlasError in one line)."""
    skill_settings(variants).check()


def skill_rule_sets(variants: Sequence[Variant]) -> list[RuleSet]:
    """The variants as the atlas's rule sets, each changed from the first in words."""
    base = variants[0].config.rules
    return [
        RuleSet(v.name, change_in_words(v.config.rules, base), v.config.rules) for v in variants
    ]
