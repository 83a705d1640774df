"""What the default atlas costs, part by part, and the sizes its precision targets would
need: ``python benchmarks/bench_atlas.py [--rounds R] [--sample K]``.

Plays two batches (``R`` rounds a table) of a sample of the default atlas's rule sets —
the base, one rule set per other table size, and the first ``K`` others — on one
thread, and prints for each: the CPU seconds of a batch's duels, of its edges (the pairs
on duplicate deals) and of its ordinary matches (every thread's, so the figure holds on
a busy machine), the 95 % half-widths of RS at each search level, the top rung's skill
gap − skill gap(base) and the two Δ after two batches, and the rounds a table each target would
need (a half-width shrinks as 1/√rounds). Then the default atlas's cost with every part
of every rule set at its cap (the sample's mean cost by table size), in minutes on two
cores, and the CPU seconds per round of each part (``CPU_SECONDS_PER_ROUND`` in
``simulator/runs/atlas/batches.py``).
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict

from simulator.matchloop.api import set_threads
from simulator.rules.options import Rules
from simulator.runs.atlas.batches import AtlasSettings, BatchStore, play_locally, skill_rows
from simulator.runs.atlas.play import DUEL, EDGE, MATCH, MIX, PARTS, TABLE_KIND, Table
from simulator.runs.atlas.sets import default_rule_sets

TARGETS = {"relative_skill_champion_low": 0.02, "relative_skill": 0.02,
           "relative_skill_champion_high": 0.02, "skill_gap_champion_high_vs_base": 0.01,
           "edge_top_vs_heuristic": 0.01, "edge_heuristic_vs_random": 0.01}  # fmt: skip


class TimedPlay:
    """Plays the tables on this machine and adds up each part's CPU seconds."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)

    def __call__(self, rules: Rules, tables: list[Table]) -> list:
        start = time.process_time()
        out = play_locally(rules, tables)
        part = next(p for p, kind in TABLE_KIND.items() if kind == tables[0].kind)
        self.seconds[part] += time.process_time() - start
        return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1000, help="rounds a table per batch")
    parser.add_argument("--sample", type=int, default=3, help="rule sets beside the base")
    args = parser.parse_args()
    set_threads(1)
    every = default_rule_sets()
    base = every[0]
    by_players = {r.rules.players: r for r in every[1:] if r.rules.players != base.rules.players}
    sample = [base, *list(by_players.values()), *every[1 : 1 + args.sample]]
    batches = 2
    settings = AtlasSettings(batch_rounds=args.rounds, min_batches=batches,
                             max_batches=batches, max_edge_batches=batches,
                             match_batches=batches, mix_batches=batches)  # fmt: skip
    cost: dict[int, list[dict[str, float]]] = {}
    base_store = BatchStore()
    skill_rows([base], settings, store=base_store)  # the base's batches, for the pairs
    for rule_set in sample:
        sets = [base] if rule_set is base else [base, rule_set]
        skill_rows(sets, settings, store=_copy(base_store))  # compiles (cached on disk)
        play = TimedPlay()
        frame = skill_rows(sets, settings, play=play, store=BatchStore() if rule_set is base
                           else _copy(base_store))  # fmt: skip
        per_batch = {part: seconds / batches for part, seconds in play.seconds.items()}
        cost.setdefault(rule_set.rules.players, []).append(per_batch)
        rows = frame[frame["rule_set"] == rule_set.name].set_index("measure")
        widths = []
        for measure, target in TARGETS.items():
            if measure in rows.index:
                half = (rows.at[measure, "high"] - rows.at[measure, "low"]) / 2
                need = batches * args.rounds * (half / target) ** 2
                widths.append(f"{measure} ±{half:.3f} (~{need:,.0f} rounds)")
        print(f"{rule_set.name}: CPU s a batch: duels {per_batch[DUEL]:.1f}, edges "
              f"{per_batch[EDGE]:.1f}, matches {per_batch[MATCH]:.1f}, mixed tables "
              f"{per_batch[MIX]:.1f}; " + "; ".join(widths),
              flush=True)  # fmt: skip
    report_defaults(every, base.rules.players, cost, args.rounds)


def report_defaults(every: list, base_players: int, cost: dict, rounds: int) -> None:
    """The default atlas at its caps, from the sample's costs by table size."""
    defaults = AtlasSettings()
    caps = {part: defaults.cap(part) for part in PARTS}
    total = 0.0
    for rule_set in every:
        runs = cost.get(rule_set.rules.players) or cost[base_players]
        for part, cap in caps.items():
            mean = sum(r[part] for r in runs) / len(runs)
            total += mean * defaults.batch_rounds / rounds * cap
    base_runs = cost[base_players]
    per_round = {p: sum(r[p] for r in base_runs) / len(base_runs) / rounds for p in caps}
    print(f"default atlas ({len(every)} rule sets, {caps[DUEL]} batches of duels, "
          f"{caps[EDGE]} of edges and {caps[MATCH]} of matches of {defaults.batch_rounds} "
          f"rounds at the caps): {total:,.0f} CPU s, about {total / 2 / 60:.0f} minutes on 2 "
          f"cores; CPU s a round at {base_players} players: duels {per_round[DUEL]:.5f}, "
          f"edges {per_round[EDGE]:.5f}, matches {per_round[MATCH]:.5f}, mixed tables "
          f"{per_round[MIX]:.5f}")  # fmt: skip


def _copy(store: BatchStore) -> BatchStore:
    """A store holding the same batches (so a timed run plays only its own)."""
    copy = BatchStore()
    copy.batches = dict(store.batches)
    return copy


if __name__ == "__main__":
    main()
