"""Agent steps per second of the single-agent form: the compiled vector env
(``gymnasium.make_vec(id, num_envs=B)``, :mod:`territory_envs.single_vector`) beside gymnasium's
``SyncVectorEnv`` over the one-game env (``vectorization_mode="sync"``), measured in one run.

::

    python -m benchmarks.single_vector_speed                    # every game at its default size
    python -m benchmarks.single_vector_speed lin --envs 256 --seconds 5
    python -m benchmarks.single_vector_speed --opponent greedy

The agent's actions are drawn uniformly among its legal ones in numpy (as a learner's sampling
would be, outside the env); the opponent is ``random`` or ``greedy`` (batched in the compiled form:
``territory_envs.lookahead``; ``agents.greedy.GreedyAgent`` in the one-game env). An agent step includes the opponent's
reply and the resets of finished games.
"""
from __future__ import annotations

import argparse
import time

import gymnasium
import numpy as np

import territory_envs  # noqa: F401  (registers the ids)
from territory_envs.single import gym_ids


def legal_sample(masks: np.ndarray, rng) -> np.ndarray:
    """One uniformly random legal action per row (argmax of noise on the legal entries)."""
    return np.argmax(rng.random(masks.shape) * masks, axis=1)


def steps_per_second(envs, seconds: float) -> float:
    rng = np.random.default_rng(0)
    obs, _ = envs.reset(seed=0)
    for _ in range(3):  # warm: compiled kernels loaded, buffers touched
        obs, *_ = envs.step(legal_sample(obs["action_mask"], rng))
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        obs, *_ = envs.step(legal_sample(obs["action_mask"], rng))
        steps += envs.num_envs
    return steps / (time.perf_counter() - start)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(gym_ids()))
    parser.add_argument("--envs", type=int, default=1024, help="games in the compiled vector env")
    parser.add_argument("--sync-envs", type=int, default=16, help="games in gymnasium's SyncVectorEnv")
    parser.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    parser.add_argument("--opponent", default="random", choices=("random", "greedy"))
    parser.add_argument("--threads", type=int, default=None, help="the compiled env's threads (default: all)")
    args = parser.parse_args(argv)
    print(f"opponent {args.opponent}")
    print(f"| game | compiled, {args.envs} games (steps/s) | SyncVectorEnv, {args.sync_envs} games (steps/s) "
          f"| ratio |")
    print("|---|---|---|---|")
    for name in args.games:
        compiled = gymnasium.make_vec(gym_ids()[name], num_envs=args.envs, num_threads=args.threads,
                                     opponent=args.opponent)
        sync = gymnasium.make_vec(gym_ids()[name], num_envs=args.sync_envs, vectorization_mode="sync",
                                 opponent=args.opponent)
        fast, slow = steps_per_second(compiled, args.seconds), steps_per_second(sync, args.seconds)
        print(f"| {name} | {fast:,.0f} | {slow:,.0f} | {fast / slow:.0f}x |", flush=True)


if __name__ == "__main__":
    main()
