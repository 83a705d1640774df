"""The atlas's ladder of players: the same rungs under every rule set, of graded strength,
and what the kernel plays for each (issue 39, docs/skill.md).

One RS, measured with one player standing for skill, gave opposite "significant" verdicts
when that player's search changed (jack-back, spade, scum). So the atlas measures a whole
ladder, weakest to strongest (:data:`RUNGS`): ``random``, ``lowest``, the rule set's best
heuristic, tuned ``linear``, and ``champion`` at three strengths of one knob
(:data:`SEARCH_KNOB` times each of :data:`LEVELS`), with ``clairvoyant`` at the top level
as the ceiling of every rung that has one (:data:`CEILINGS`): it plays its candidates out
on the one true deal, so the knob does not bind it (its three levels placed the same to the
last round), and one table serves every level. A verdict holds only where every rung of
:data:`VERDICT_RUNGS` agrees.

The search is the declared one under every rule set (not the deeper one shipped for
some, :func:`strategies.shipped.search_for`), so that the rule sets are compared with one
instrument; ``budget_scale`` (``president atlas --budget-scale``) multiplies every level,
so that a re-run with every search doubled can check that the verdicts hold.
"""

from __future__ import annotations

from strategies import registry

FLOOR, LOWEST, HEURISTIC, ROBUST = "random", "lowest", "heuristic", "linear"
SEARCH, CLAIRVOYANT = "champion", "clairvoyant"  # the searching player, its ceiling
# the knob's levels: the suffix of a search rung's label and its factor
LEVELS = {"_low": 0.25, "": 1.0, "_high": 4.0}
SEARCH_RUNGS = tuple(f"{SEARCH}{suffix}" for suffix in LEVELS)
TOP_RUNG = SEARCH_RUNGS[-1]  # champion_high
RUNGS = (FLOOR, LOWEST, HEURISTIC, ROBUST, *SEARCH_RUNGS)  # weakest to strongest
CEILINGS = dict.fromkeys((ROBUST, *SEARCH_RUNGS), CLAIRVOYANT)  # one ceiling, the top level's
CEILING_RUNGS = (CLAIRVOYANT,)
VERDICT_RUNGS = (ROBUST, *SEARCH_RUNGS)  # the rungs every verdict must agree at
GAP_RUNGS = RUNGS[1:]  # the rungs with a skill gap over random
# the search parameters the strength knob multiplies, together (budget alone does not bind:
# measured, 48 → 192 with guesses 12 plays the same as 48)
SEARCH_KNOB = ("budget", "guesses", "solve")


def level(label: str) -> float | None:
    """The knob's factor of a search rung (``champion_high``: 4) or of the ceiling (the
    top level's), else None."""
    if label == CLAIRVOYANT:
        return max(LEVELS.values())
    for suffix, factor in LEVELS.items():
        if label == f"{SEARCH}{suffix}":
            return factor
    return None


def kernel_name(label: str, best: str = HEURISTIC, budget_scale: float = 1.0) -> str:
    """The strategy the kernel plays for a rung or ceiling ``label`` (or any strategy's
    own name) under every rule set: ``heuristic`` is ``best`` (the rule set's best
    heuristic); a search rung is ``champion`` or ``clairvoyant`` with every declared
    parameter, those of :data:`SEARCH_KNOB` multiplied by its level and ``budget_scale``
    (rounded, at least 1); any other name is played as named."""
    if label == HEURISTIC:
        return best
    factor = level(label)
    if factor is None:
        return label
    name = SEARCH if label.startswith(SEARCH) else CLAIRVOYANT
    spec = registry.get(name)  # without rules: the declared values
    values = []
    for p, v in zip(spec.params, spec.vector, strict=True):
        if p.name in SEARCH_KNOB:
            v = max(1, round(v * factor * budget_scale))
        values.append(f"{p.name}={float(v)!r}")
    return f"{name}:{','.join(values)}"
