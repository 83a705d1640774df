# examples/strategies/keep_pairs.py
from strategies.kit import PASS


class KeepPairs:
    """Plays the weakest legal move that breaks no group; passes when every move would."""

    name = "keep-pairs"

    def choose(self, obs, rng):
        whole = [m for m in obs.legal if not m.is_pass and m.count == obs.hand[m.rank]]
        return whole[0] if whole else PASS if PASS in obs.legal else obs.legal[0]

    def give_back(self, hand, k, rng):
        return [r for r, c in enumerate(hand) for _ in range(c)][:k]
