"""What the default atlas costs, and the sizes its precision targets would need:
``python benchmarks/bench_atlas.py [--rounds R] [--sample K]``.

Plays two batches (``R`` rounds a table) of a sample of the default atlas's rule sets —
the base, one rule set per other table size, and the first ``K`` others — on one
thread, and prints for each: the CPU seconds of a batch (every thread's, so the figure
holds on a busy machine), the 95 % half-widths of RS, RS − RS(base) and the two Δ after
two batches, and the rounds a table each target would need (a half-width shrinks as
1/√rounds). Then the default atlas's cost: CPU seconds of its batches at the default
sizes (every rule set at the cap, the sample's mean cost by table size), and minutes on
two cores.
"""

from __future__ import annotations

import argparse
import time

from simulator.matchloop.api import set_threads
from simulator.runs.atlas import AtlasSettings, BatchStore, skill_rows
from simulator.runs.atlas_sets import default_rule_sets

TARGETS = {"relative_skill": 0.02, "relative_skill_vs_base": 0.01,
           "edge_champion_vs_heuristic": 0.01, "edge_heuristic_vs_random": 0.01}  # fmt: skip


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
    settings = AtlasSettings(batch_rounds=args.rounds, min_batches=2, max_batches=2)
    cost: dict[int, list[float]] = {}
    base_store = BatchStore()
    skill_rows([base], settings, store=base_store)  # the base's batches, for the pairs
    for rule_set in sample:
        sets = [base] if rule_set is base else [base, rule_set]
        skill_rows(sets, settings, store=_copy(base_store))  # compiles (cached on disk)
        start = time.process_time()
        frame = skill_rows(sets, settings, store=BatchStore() if rule_set is base
                           else _copy(base_store))  # fmt: skip
        seconds = (time.process_time() - start) / settings.max_batches
        cost.setdefault(rule_set.rules.players, []).append(seconds)
        rows = frame[frame["rule_set"] == rule_set.name].set_index("measure")
        widths = []
        for measure, target in TARGETS.items():
            if measure in rows.index:
                half = (rows.at[measure, "high"] - rows.at[measure, "low"]) / 2
                need = settings.max_batches * args.rounds * (half / target) ** 2
                widths.append(f"{measure} ±{half:.3f} (~{need:,.0f} rounds)")
        print(f"{rule_set.name}: {seconds:.1f} CPU s a batch; " + "; ".join(widths), flush=True)
    defaults = AtlasSettings()
    total = 0.0
    for rule_set in every:
        runs = cost.get(rule_set.rules.players) or cost[base.rules.players]
        per_batch = sum(runs) / len(runs) * defaults.batch_rounds / args.rounds
        total += per_batch * defaults.max_batches
    print(f"default atlas ({len(every)} rule sets, {defaults.max_batches} batches of "
          f"{defaults.batch_rounds} rounds at the cap): {total:,.0f} CPU s, about "
          f"{total / 2 / 60:.0f} minutes on 2 cores")  # fmt: skip


def _copy(store: BatchStore) -> BatchStore:
    """A store holding the same batches (so a timed run plays only its own)."""
    copy = BatchStore()
    copy.batches = dict(store.batches)
    return copy


if __name__ == "__main__":
    main()
