"""The vector environment: the kernel's games, the PettingZoo environment's layout,
gymnasium's conventions.

A learner that answers as a built-in would (``builtin_actions``, drawing from the
table's stream as the kernel draws for his seat) plays the kernel's match for the same
(seed, match): the same rows. Driven alongside the PettingZoo environment through the
same matches, the learner is shown the same observations and masks at every decision
(the one layout of ``simulator/env/encoding.py``), give-backs and hand-overs included.
The line-ups are those of ``test_env.py``, whose kernel loops the suite compiles anyway.
"""

from __future__ import annotations

import gc
import runpy
import sys

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from gymnasium.wrappers.vector import RecordEpisodeStatistics

from simulator.env import raw_env
from simulator.env.encoding import OFFSETS
from simulator.env.vector import PresidentVectorEnv
from simulator.env.vector.spread import Spread
from simulator.matchloop.api import KernelJob, rows_of_record, run_matches
from simulator.matchloop.matches import SEAT_PLACE, SEAT_POINTS, seats
from simulator.rules.options import RulesError
from simulator.rules.presets import preset
from strategies.registry import get
from strategies.specs import StrategyError
from tests.conftest import ROOT
from tests.docs_code import run_python_blocks
from tests.env.drive import play
from tests.env.test_env import MANY_RULES

SEED, ROUNDS = 7, 4
FRENCH = (preset("french"), ["lowest", "random", "lowest", "random"])
PLANNER = (MANY_RULES.with_options(players=4), ["random", "planner", "lowest", "random"])
UECDA = (preset("uecda"), ["lowest", "random", "random", "lowest", "random"])
GIFTS = (
    preset("french").with_options(seven_passes=True, ten_discards=True, capital_falls=True),
    ["random", "lowest", "random", "lowest"],
)
SUITED_GIFTS = (  # the suits, the lock and the 3 of spades behind every card handed over
    preset("french").with_options(jokers=2, suit_lock="suits", spade_three_return=True,
                                  seven_passes=True, ten_discards=True, reseat=True),
    ["lowest", "random", "lowest", "random"],
)  # fmt: skip


def vector(rules, names, seat, tables, **options):
    """The environment with ``names`` at the other seats, reset to ``SEED``."""
    others = [name for i, name in enumerate(names) if i != seat]
    e = PresidentVectorEnv(tables, rules=rules, opponents=others, seat=seat, rounds=ROUNDS,
                           max_rounds=40, threads=2, **options)  # fmt: skip
    return e, e.reset(seed=SEED)[0]


def first_matches(e, obs, name):
    """Step every table to the end of its first match as built-in ``name`` would play:
    each table's observations at its decisions, its rows and the rewards it was given."""
    n = e.num_envs
    views, rows, earned = [[] for _ in range(n)], [None] * n, np.zeros(n)
    done = np.zeros(n, bool)
    while not done.all():
        actions = e.builtin_actions(name)
        for t in np.flatnonzero(~done):
            assert obs["action_mask"][t, actions[t]] == 1  # the mask allows what the kernel does
            views[t].append({k: v[t] for k, v in obs.items()})
        obs, reward, terminated, truncated, _ = e.step(actions)
        earned += np.where(done, 0, reward)
        for t in np.flatnonzero((terminated | truncated) & ~done):
            done[t] = True
            rows[t] = e.rows[t].copy()
    return views, rows, earned


@pytest.mark.parametrize(("rules", "names"), [FRENCH, PLANNER, UECDA], ids=["french", "planner",
                                                                             "uecda"])  # fmt: skip
def test_a_learner_playing_a_built_in_plays_the_kernels_match(rules, names) -> None:
    seat = 1
    e, obs = vector(rules, names, seat, 3, keep_rows=True)
    _, rows, _ = first_matches(e, obs, names[seat])
    job = KernelJob.build(rules, names, SEED, None if rules.target else ROUNDS, 40)
    kernel = run_matches(job, 0, 3)
    for t in range(3):
        mine = kernel[kernel[:, 0] == t]
        assert np.array_equal(rows[t][: len(mine)], mine)


@pytest.mark.parametrize(("rules", "names", "seat"),
                         [(*FRENCH, 0), (*PLANNER, 1), (*UECDA, 0), (*GIFTS, 1),
                          (*SUITED_GIFTS, 0)],
                         ids=["french", "planner", "uecda", "gifts", "suited-gifts"])  # fmt: skip
def test_the_learner_is_shown_what_the_pettingzoo_env_shows(rules, names, seat) -> None:
    """Observation and mask at every decision of the learner, give-backs (the exchange,
    the hand-overs after 7s and 10s) included, and the rows of the match."""
    e, obs = vector(rules, names, seat, 2, keep_rows=True)
    views, rows, _ = first_matches(e, obs, names[seat])
    zoo = raw_env(rules=rules, rounds=ROUNDS, max_rounds=40)
    giving = 0
    for t in range(2):
        seen: dict[str, list] = {f"player_{seat}": []}
        record = play(zoo, names, SEED, t, seen)
        shown = seen[f"player_{seat}"]
        assert len(shown) == len(views[t])
        for theirs, mine in zip(shown, views[t], strict=True):
            assert np.array_equal(theirs["observation"], mine["observation"])
            assert np.array_equal(theirs["action_mask"], mine["action_mask"])
            giving += int(mine["observation"][OFFSETS["giving"]])
        expected = rows_of_record(t, record, rules.players)
        assert np.array_equal(rows[t][: len(expected)], expected)
    assert giving > 0  # the learner gave cards back (and, under GIFTS, handed some over)


def test_rewards_are_the_learners_places_or_points() -> None:
    rules, names = FRENCH
    points = rules.with_options(points={"top": [3], "bottom": [-2]})
    for reward in ("places", "points"):
        e, obs = vector(points, names, 2, 3, keep_rows=True, reward=reward)
        _, rows, earned = first_matches(e, obs, names[2])
        for t in range(3):
            place, pts = seats(rows[t], SEAT_PLACE, 4)[:, 2], seats(rows[t], SEAT_POINTS, 4)[:, 2]
            want = pts.sum() if reward == "points" else ((5 - 2 * place) / 3).sum()
            assert earned[t] == pytest.approx(want)


def test_gymnasium_conventions_and_next_step_autoreset() -> None:
    e, obs = vector(preset("scum"), ["random"] * 4, 3, 4, episode="round")
    assert e.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert e.observation_space.contains(obs) and e.single_observation_space["observation"].shape
    assert e.action_space.shape == (4,)
    again = PresidentVectorEnv(4, rules="scum", opponents="random", seat=3, episode="round")
    assert np.array_equal(again.reset(seed=SEED)[0]["observation"], obs["observation"])
    stats = RecordEpisodeStatistics(e)
    stats.reset(seed=SEED)
    rng = np.random.default_rng(0)
    ended, returns = 0, np.zeros(4)
    for _ in range(60):
        legal = [np.flatnonzero(m) for m in obs["action_mask"]]
        actions = np.array([rng.choice(a) if a.size else 0 for a in legal])
        matches = e.matches
        obs, reward, terminated, truncated, info = stats.step(actions)
        assert e.observation_space.contains(obs) and not truncated.any()
        returns += reward
        for t in np.flatnonzero(terminated):  # a one-round episode: its reward, its return
            assert info["episode"]["r"][t] == pytest.approx(returns[t])
            assert not obs["action_mask"][t].any()  # the end: nothing to decide
            returns[t] = 0
            ended += 1
        restarted = e.matches != matches  # the step after the end: the next match
        assert np.all(e.matches[restarted] == matches[restarted] + 4)
    assert ended > 0


def test_the_games_do_not_depend_on_the_threads() -> None:
    rules, names = UECDA
    played = []
    for threads in (1, 3):
        e = PresidentVectorEnv(5, rules=rules, opponents=names[1:], threads=threads)
        obs = e.reset(seed=SEED)[0]
        for _ in range(30):
            obs, *_ = e.step(e.builtin_actions("random"))
        played.append(obs["observation"])
    assert np.array_equal(*played)


@pytest.mark.filterwarnings("error::pytest.PytestUnraisableExceptionWarning")
def test_bad_options_and_illegal_actions_are_refused() -> None:
    """Refused options raise, and the half-made environment goes away quietly (gymnasium
    1.1 closes an environment when it is collected, threads or not)."""
    with pytest.raises(StrategyError, match="unknown strategy"):
        PresidentVectorEnv(2, opponents="lowst")
    with pytest.raises(StrategyError, match="search players"):
        PresidentVectorEnv(2, opponents="montecarlo")
    with pytest.raises(StrategyError, match="2 opponents for 3"):
        PresidentVectorEnv(2, opponents=["lowest", "random"])
    with pytest.raises(RulesError, match="seat"):
        PresidentVectorEnv(2, seat=4)
    with pytest.raises(RulesError):
        PresidentVectorEnv(2, rules="no-such-rules")
    with pytest.raises(RulesError, match="num_envs"):
        PresidentVectorEnv(0)
    gc.collect()  # the refused ones are closed now, not after the test
    e = PresidentVectorEnv(2, opponents="lowest", threads=1)
    obs = e.reset(seed=1)[0]
    actions = obs["action_mask"].argmax(axis=1)
    illegal = actions.copy()
    illegal[1] = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    with pytest.raises(ValueError, match="table 1 is illegal"):
        e.step(illegal)
    e.step(actions)  # the tables go on


def test_the_examples_of_docs_env_md_run(tmp_path, capsys) -> None:
    run_python_blocks(ROOT / "docs" / "env.md", tmp_path)
    assert "matches, mean return" in capsys.readouterr().out


def test_opponents_by_text_or_spec_and_changed_between_rounds() -> None:
    """A frozen ``linear`` with its own weights (a spec) plays the simulator's match with
    those weights; ``set_opponents`` seats others (from each table's next round)."""
    rules = preset("french")
    frozen = get("linear", rules).with_values("w_pass=-0.5,w_wins=1.5")
    e = PresidentVectorEnv(2, rules=rules, opponents=["lowest", frozen, "random"], seat=0,
                           rounds=ROUNDS, keep_rows=True, threads=1)  # fmt: skip
    assert e.opponents == ["lowest", frozen.label, "random"]
    e.set_opponents("random, lowest,random")
    assert e.opponents == ["random", "lowest", "random"]
    e.set_opponents(["lowest", frozen, "random"])
    _, rows, _ = first_matches(e, e.reset(seed=SEED)[0], "lowest")
    names = ["lowest", "lowest", frozen.label, "random"]  # the reference engine's players
    zoo = raw_env(rules=rules, rounds=ROUNDS)
    for t in range(2):
        assert np.array_equal(rows[t], rows_of_record(t, play(zoo, names, SEED, t), 4))


def test_spread_covers_every_table_once_and_reraises_errors() -> None:
    spread = Spread(1000, 3)
    hits = np.zeros(1000, np.int64)

    def work(lo: int, hi: int) -> None:
        hits[lo:hi] += 1

    spread.run(work)
    assert (hits == 1).all()

    def fails(lo: int, hi: int) -> None:
        raise KeyError(lo)

    with pytest.raises(KeyError):
        spread.run(fails)
    spread.close()
    spread.run(work)  # the caller's thread alone
    assert (hits == 2).all()


def test_the_learning_example_runs_at_a_tiny_size(monkeypatch, capsys) -> None:
    tiny = ["--generations", "1", "--tables", "8", "--steps", "30", "--threads", "1"]
    monkeypatch.setattr(sys, "argv", ["learn_linear.py", *tiny])
    runpy.run_path(str(ROOT / "examples" / "learn_linear.py"), run_name="__main__")
    assert "learned weights: mean place" in capsys.readouterr().out
