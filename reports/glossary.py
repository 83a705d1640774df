"""The words of the pages: the roles and every statistical term, defined once.

Each page lists the terms it uses in a glossary near its top, and its text links a term's
first use to its entry (:func:`term`), so a reader meeting "SLEM" or "Vice-Scum" is one
tap from what it means.
"""

from __future__ import annotations

from collections.abc import Iterable

from reports import html
from reports.html import Markup

TERMS: dict[str, tuple[str, str]] = {  # anchor → (term, definition)
    "roles": (
        "President, Vice-President, Neutral, Vice-Scum, Scum (P, VP, N, VS, S)",
        "The roles, by place in a round: the first player out is President, the second "
        "Vice-President, the last Scum, the second-to-last Vice-Scum, anyone between "
        "Neutral (with 3 players: President, Neutral, Scum). From the second round on, the "
        "roles of the last round decide the card exchange, and in most rule sets who deals "
        "and who leads.",
    ),
    "place": (
        "place, mean place",
        "The order in which players go out: 1 is first (the President). The mean place "
        "is the average over a player's rounds; lower is better, and with n equal players "
        "it would be (n + 1)/2.",
    ),
    "rates": (
        "President rate, Scum rate",
        "The share of a strategy's rounds in which its player finished first (last).",
    ),
    "seat-rounds": (
        "seat-rounds",
        "Rounds times the seats a strategy held: a strategy at 2 seats of a "
        "1,000,000-round run played 2,000,000 seat-rounds.",
    ),
    "interval": (
        "95 % interval [low, high]",
        "The range that holds the true value in 95 % of runs like this one. Rounds of a "
        "match depend on each other, so every interval treats whole matches (in batches, "
        "the clusters) as the independent units, never single rounds.",
    ),
    "persistence": (
        "P(President → President)",
        "The chance that a round's President is President again in the next round; "
        "likewise P(Scum → Scum).",
    ),
    "no-memory": (
        "without memory (the baseline)",
        "What P(President → President) would be if each round's roles were independent of "
        "the last: for one strategy its own President rate π; for all players together "
        "Σπᵢ²/Σπᵢ over the seats' players (1/n only when all players are alike: a strong "
        "player is President more often anyway). What lies above it is the memory of the "
        "roles, which the card exchange chiefly creates.",
    ),
    "tenure": (
        "President tenure",
        "The expected number of consecutive rounds as President, the first included: "
        "1/(1 − P(President → President)).",
    ),
    "chain": (
        "transition matrix, stationary share",
        "P(role next round | role now) for every pair of roles; its stationary shares are "
        "the long-run shares of rounds a player spends in each role.",
    ),
    "slem": (
        "SLEM, half-life",
        "The second-largest eigenvalue modulus of the transition matrix: each round, the "
        "influence of the current role on the roles to come shrinks by this factor (0: "
        "forgotten at once). The half-life, ln ½ / ln SLEM, is the number of rounds in which "
        "it halves.",
    ),
    "luck": (
        "luck-adjusted",
        "The mean place with the luck of the dealt cards taken out: place − β × (the dealt "
        "hand's strength − the table's mean), β the least-squares slope of place on that "
        "difference over every seat-round of the data. Under duplicate "
        "deals every strategy gets the same hands, so the luck cancels already.",
    ),
    "holm": (
        "Holm-adjusted p, stars",
        "A p-value corrected for comparing many pairs at once (Holm's method): * p < 0.05, "
        "** p < 0.01. Without a star a difference may be chance.",
    ),
    "deciles": (
        "decile of dealt-hand strength",
        "Every dealt hand (before the exchange) ranked by strength and cut into ten equal "
        "groups: 1 is the weakest tenth of hands, 10 the strongest.",
    ),
    "duplicate": (
        "duplicate deals, variance ratio",
        "Groups of matches play the same deals with the strategies turned round the table, "
        "so the luck of the cards cancels between strategies. The variance ratio is the "
        "variance with duplicate deals over the variance independent deals would give: "
        "below 1, they narrow the intervals.",
    ),
    "jackknife": (
        "jackknife",
        "How quantities that are not plain ratios (tenure, SLEM, differences between rule "
        "sets) get an interval: the quantity is computed again leaving out one batch of "
        "matches at a time, and the spread of those values gives its standard error.",
    ),
    "paired": (
        "paired difference",
        "A difference between two rule sets measured on the same deals (the same seed and "
        "matches), so the luck of the cards cancels and its interval is narrower than the "
        "two intervals apart would suggest.",
    ),
    "gini": (
        "Gini of match place points",
        "How unequal a match's outcome is: every player scores n − place each round, summed "
        "over the match; the Gini coefficient of those totals is 0 when all scored the same "
        "and grows as the same players keep the top places.",
    ),
    "correlation": (
        "place correlation, round to next",
        "The correlation between a player's place and his place in the next round: 0 when "
        "the last round says nothing about the next, 1 when everyone keeps his place.",
    ),
    "skill": (
        "relative skill (RS)",
        "How much of the game the play decides: RS = (G(random) − G(champion)) / "
        "(G(random) − G(clairvoyant)), G the mean place of a strategy in one seat against "
        "the field in the others, on the same deals. clairvoyant sees every hand, so the "
        "denominator is what perfect knowledge could win over random play; RS is the share "
        "of it that the best play we have wins without that knowledge. Near 0 the cards "
        "decide, near 1 the play does. It depends on the field and on how strong champion "
        "really is: a stronger champion would raise it.",
    ),
    "skill-gap": (
        "skill gap",
        "How far a player gets from random play towards always first: 2 (G(random) − "
        "G(player)) / (n − 1), G the mean place in one seat against the field on the same "
        "deals, n the players; 0 is random play's (n + 1)/2, 1 is always first. The atlas "
        "measures it at each rung of its ladder of players. If a share p of rounds were "
        "decided by a coin instead of the play it would shrink by (1 − p): it sees luck.",
    ),
    "skill-depth": (
        "skill depth",
        "The spread of a rating (Plackett–Luce log-strength, from whole finishing orders "
        "of tables that mix the rungs of the ladder) from random play to the top rung: how "
        "many distinct levels of play the game rewards. The field does not enter it.",
    ),
    "verdict": (
        "verdict that holds",
        "A rule set is said to make the game more about skill (or luck) than the base only "
        "where the paired difference of the skill gap has the same sign, each with a "
        "Holm-adjusted p below 0.05, at every rung from tuned linear up and in the skill "
        "depth; where the rungs disagree, it depends on the level of play.",
    ),
    "edge": (
        "edge Δ, N95",
        "Δ: the mean difference of place per round between two strategies at one table "
        "(field players in the other seats, duplicate deals); negative when the first "
        "finishes ahead. N95: the rounds after which the better of the two leads on total "
        "place with probability 0.95, (1.645 σ/Δ)², σ the long-run spread of the per-round "
        "difference in ordinary matches; open-ended (∞) when Δ's interval holds 0.",
    ),
    "deal-share": (
        "R² of place on the deal",
        "The share of the variance of place that the dealt hand's strength explains, "
        "before and after the card exchange: the part of a round the cards decide at once.",
    ),
    "capped": (
        "capped",
        "The rule set used the most rounds allowed before its intervals reached the "
        "precision asked for: its intervals are wider than asked. RS and the edges are "
        "played apart, each to its own cap, so either may be capped alone.",
    ),
}


def term(key: str, label: object | None = None) -> Markup:
    """A term's use in the text, linked to its glossary entry."""
    return html.link(f"g-{key}", TERMS[key][0] if label is None else label)


def glossary(keys: Iterable[str]) -> str:
    """The entries of ``keys``, in the glossary's order, as a definition list."""
    wanted = set(keys)
    items = "".join(
        f'<dt id="g-{key}">{html.text(word)}</dt><dd>{html.text(meaning)}</dd>'
        for key, (word, meaning) in TERMS.items()
        if key in wanted
    )
    return f'<dl class="glossary">{items}</dl>\n'
