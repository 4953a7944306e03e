"""The batch's thread count (territory_envs/core/threads.py): tuned by timing on a simulated
machine whose load comes and goes, fixed when the user fixes it, and never a change to the games."""
import numba
import numpy as np
import pytest

from territory_envs.core import threads
from territory_envs.core.threads import FollowTuner, ThreadTuner, candidate_counts
from territory_envs.vector import make_vec


class Machine:
    """A simulated machine: a wall clock, the process's CPU clock, and a step whose cost depends
    on the thread count and the load. On idle cores two threads take 0.55 ms and one 1 ms, every
    thread busy all along; beside a busy process two threads stall at the barrier (3 ms, each
    thread on its core half of the time) and one thread keeps its 1 ms."""

    def __init__(self, one=1e-3, two=0.55e-3):
        self.now = self.cpu = 0.0
        self.loaded = False
        self.one, self.two = one, two

    def cost(self, count: int) -> float:
        if self.loaded:
            return self.one if count == 1 else 3e-3
        return self.one if count == 1 else self.two

    def tuner(self) -> ThreadTuner:
        return ThreadTuner(max_threads=2, clock=lambda: self.now, cpu_clock=lambda: self.cpu)

    def run(self, tuner: ThreadTuner, seconds: float) -> dict:
        """Step for ``seconds``; the time spent on each count."""
        spent, end = {}, self.now + seconds
        while self.now < end:
            tuner.begin()
            count = tuner.count
            cost = self.cost(count)
            self.now += cost
            self.cpu += cost * count * (0.5 if self.loaded and count > 1 else 1.0)
            tuner.end()
            spent[count] = spent.get(count, 0.0) + cost
        return spent


def test_candidates():
    assert candidate_counts(1) == (1,)
    assert candidate_counts(2) == (1, 2)
    assert candidate_counts(16) == (1, 2, 4, 8, 16)
    assert candidate_counts(6) == (1, 2, 4, 6)


def test_the_tuner_follows_the_load():
    machine = Machine()
    tuner = machine.tuner()
    spent = machine.run(tuner, 10.0)
    assert tuner.count == 2
    assert spent.get(1, 0) < 0.05  # one thread only in the first probe
    machine.loaded = True  # a busy process starts: a window steps down to one thread
    spent = machine.run(tuner, 0.2)
    assert tuner.count == 1 and spent.get(2, 0) <= 2 * threads.WINDOW  # the window under way, then one
    spent = machine.run(tuner, 30.0)
    steps = sum(s / machine.cost(c) for c, s in spent.items())
    assert steps >= 0.97 * 30.0 / machine.cost(1)  # the tries of two threads cost under 3%
    assert tuner.count == 1
    machine.loaded = False  # the busy process ends: the next try of two threads keeps them
    machine.run(tuner, threads.LAST_INTERVAL + 3 * threads.WINDOW)
    assert tuner.count == 2


def test_on_idle_cores_a_large_batch_stays_on_every_core_and_a_small_one_on_one():
    machine = Machine()
    tuner = machine.tuner()
    machine.run(tuner, 0.5)
    assert tuner.count == 2
    assert set(machine.run(tuner, 20.0)) == {2}  # nothing probed after the start
    machine = Machine(one=0.1e-3, two=0.15e-3)  # a small batch: two threads cost more than they give
    tuner = machine.tuner()
    machine.run(tuner, 10.0)
    assert tuner.count == 1
    spent = machine.run(tuner, 30.0)
    assert spent.get(2, 0) / 30.0 < 0.02  # the tries of two threads, ever rarer


def test_a_probe_misled_by_the_first_steps_is_put_right():
    machine = Machine()
    tuner = machine.tuner()
    machine.two = 5e-3  # the first steps on two threads look slow (the pool starting, say)
    machine.run(tuner, 0.2)
    assert tuner.count == 1
    machine.two = 0.55e-3
    machine.run(tuner, threads.FIRST_INTERVAL + 2 * threads.WINDOW)
    assert tuner.count == 2


def test_a_fixed_count_is_never_changed():
    machine = Machine()
    tuner = ThreadTuner(fixed=2, max_threads=2, clock=lambda: machine.now)
    machine.loaded = True
    assert set(machine.run(tuner, 2.0)) == {2}
    leader = ThreadTuner(fixed=1, max_threads=2)
    follower = FollowTuner(leader)
    outer = numba.get_num_threads()
    follower.begin()
    assert numba.get_num_threads() == 1 and follower.count == 1
    follower.end()
    assert numba.get_num_threads() == outer  # the caller's count is given back


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="one thread: nothing to cap")
def test_a_batch_never_runs_above_the_callers_count():
    vec = make_vec("lin", 64, num_threads=2, board_size=5)
    vec.reset(seed=0)
    seen = []
    original = vec._batch.step
    vec._batch.step = lambda actions, env: (seen.append(numba.get_num_threads()), original(actions, env))
    outer = numba.get_num_threads()  # what earlier tests left (the trainer's set one thread)
    try:
        numba.set_num_threads(1)
        vec.step(vec.sample_actions())
        assert seen == [1] and numba.get_num_threads() == 1
        numba.set_num_threads(2)
        vec.step(vec.sample_actions())
        assert seen == [1, 2] and numba.get_num_threads() == 2
    finally:
        numba.set_num_threads(outer)


def test_vector_env_threads_default_to_tuned_and_fixed_counts_stay():
    assert make_vec("lin", 4, board_size=5).threads.fixed is None
    assert make_vec("lin", 4, num_threads=1, board_size=5).threads.fixed == 1


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="one thread: nothing to tune")
def test_a_tuned_batch_gives_the_games_of_one_thread(monkeypatch):
    # every call a window that steps down, every window below the best a try: the count changes
    # at every step
    for name, value in (("PROBE_CALLS", 1), ("PROBE_SECONDS", 0.0), ("WINDOW", 0.0), ("LOST", -1.0),
                        ("FIRST_INTERVAL", 0.0), ("LAST_INTERVAL", 0.0)):
        monkeypatch.setattr(threads, name, value)
    runs, counts = [], []
    for fixed in (1, None):
        vec = make_vec("lifeline", 48, num_threads=fixed, board_size=4)
        vec.reset(seed=9)
        run = []
        for _ in range(40):
            run.append(np.concatenate([np.ravel(a) for a in vec.step(vec.sample_actions())[:4]]))
            counts.append(vec.threads.count)
        runs.append(run)
    assert len(set(counts[40:])) == 2
    for one, tuned in zip(*runs):
        np.testing.assert_array_equal(one, tuned)


def test_the_greedy_scratch_batch_follows_the_batch_it_serves():
    import gymnasium
    envs = gymnasium.make_vec("territory_envs/Lin-v0", num_envs=4, board_size=5, line_length=3, opponent="greedy")
    envs.reset(seed=0)
    masks = envs.unwrapped.batch.action_masks
    envs.step(np.array([int(np.flatnonzero(m)[0]) for m in masks]))
    greedy = envs.unwrapped._greedy
    assert isinstance(greedy.scratch.threads, FollowTuner)
    assert greedy.scratch.threads.leader is envs.unwrapped.batch.threads


# --- the processes the agents package starts: torch and numba on the threads they were given ----------
from agents.base import Agent  # noqa: E402
from agents.threads import current_threads  # noqa: E402


class ThreadProbe(Agent):
    """Plays the first legal action, after checking the threads its process runs torch and numba on
    (picklable: the arena sends it to its worker processes)."""

    def __init__(self, name: str, expected: dict):
        super().__init__(0)
        self.name, self.expected = name, expected

    def act(self, state):
        got = current_threads()
        assert got == self.expected, f"{self.name} ran on {got}, not {self.expected}"
        return int(state.legal_actions()[0])


@pytest.mark.parametrize("threads", sorted({1, min(2, numba.config.NUMBA_NUM_THREADS)}))
def test_the_arena_workers_run_on_the_threads_they_were_given(threads):
    from agents.arena import run_arena
    expected = {"torch": threads, "numba": threads}
    probes = [ThreadProbe("probe-a", expected), ThreadProbe("probe-b", expected)]
    results = run_arena(["lin"], probes, games_per_pair=2, workers=2, threads=threads,
                        options={"lin": {"board_size": 5}}, plot=False)
    assert len(results["games"]) == 2


def test_the_trainer_and_its_self_play_processes_run_on_their_threads(tmp_path):
    from agents.az.config import TrainConfig
    from agents.az.network import NetConfig
    from agents.az.selfplay import SelfPlayConfig
    from agents.az.train import Trainer
    config = TrainConfig(game="lin", options={"board_size": 5}, iterations=1, games_per_iteration=2, workers=2,
                         threads=1, eval_every=0, net=NetConfig(channels=8, blocks=1, value_hidden=16),
                         selfplay=SelfPlayConfig(games_in_flight=2, full_simulations=4, fast_simulations=2))
    trainer = Trainer(config, tmp_path / "run")
    try:
        assert current_threads() == {"torch": 1, "numba": 1}  # the learner, which also evaluates
        trainer.self_play()  # starts the worker processes
        assert trainer.pool.threads() == {"torch": 1, "numba": 1}
    finally:
        trainer.close()
