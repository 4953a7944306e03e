"""Where a batched step's time goes: thread scaling and the cost of stepping many games.

    python benchmarks/diagnostics/batch_cost.py [--seconds 1.5] [--repeats 3] [--json out.json]

Per game at its 9x9-class size (Lin, Linage, Asli 9x9; Lifeline side 6), in nanoseconds of one
core per step:

* ``playout``: a compiled uniform random playout from the empty board (``GameState.rollout`` with
  ``uniform=True``), per move: one game stepped over and over;
* ``batch 16`` / ``batch 4096``: the vector env's compiled step alone (no Python-side checks, no
  action sampling in the timing) on one thread, per game stepped, the games first spread over the
  phases of a game (``VectorEnv.spread_over_game_phases``);
* ``batch 4096, N threads``: the same on every thread numba has, per step and core, with the
  speed-up over one thread.

If ``batch 16`` and ``batch 4096`` cost the same, the batch is not limited by memory; if the
threads' cost per step and core stays flat, nothing is shared between threads. The gap between
``playout`` and the batch is then the price of stepping a different game each time (cold caches
and branch history), which only fewer passes over the board can lower. Each figure is the median
of ``--repeats`` runs after a warm-up.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

import numba
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import territory_envs  # noqa: E402
from territory_envs.vector import make_vec  # noqa: E402

ROWS = [
    ("lin 9x9", "lin", {"board_size": 9}),
    ("linage 9x9", "linage", {"board_size": 9}),
    ("lifeline side 6", "lifeline", {"board_size": 6}),
    ("asli 9x9", "asli", {"board_size": 9}),
]


def batch_ns_per_step(name, options, num_envs, threads, seconds):
    """Core nanoseconds per game stepped by the batch kernel (random legal actions)."""
    vec = make_vec(name, num_envs, num_threads=threads, **options)
    vec.reset(0)
    vec.spread_over_game_phases()
    mask = vec.action_masks
    rng = np.random.default_rng(0)

    def actions():
        return np.argmax(rng.random(mask.shape, dtype=np.float32) * mask, axis=1)
    for _ in range(3):  # warm-up
        vec.step(actions())
    spent, steps = 0.0, 0
    while spent < seconds:
        chosen = actions()
        start = time.perf_counter()
        vec._batch.step(chosen, vec)
        spent += time.perf_counter() - start
        steps += num_envs
    return spent * threads / steps * 1e9


def playout_ns_per_move(name, options, seconds):
    state = territory_envs.make_game(name, **options).new_state()
    state.rollout_with_length(0, None, True)
    spent, moves, seed = 0.0, 0, 1
    while spent < seconds:
        start = time.perf_counter()
        moves += state.rollout_with_length(seed, None, True)[1]
        spent += time.perf_counter() - start
        seed += 1
    return spent / moves * 1e9


def median(run, repeats):
    return statistics.median(run() for _ in range(repeats))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.5)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", help="write the figures to this file")
    args = parser.parse_args(argv)
    threads = numba.config.NUMBA_NUM_THREADS
    print(f"| row | playout | batch 16 | batch 4096 | batch 4096, {threads} threads | speed-up |")
    print("|---|---|---|---|---|---|")
    results = {}
    for label, name, options in ROWS:
        r = {"playout": median(lambda: playout_ns_per_move(name, options, args.seconds), args.repeats)}
        for key, envs, th in (("batch_16", 16, 1), ("batch_4096", 4096, 1), ("batch_4096_all", 4096, threads)):
            r[key] = median(lambda: batch_ns_per_step(name, options, envs, th, args.seconds), args.repeats)
        r["speed_up"] = threads * r["batch_4096"] / r["batch_4096_all"]
        results[label] = r
        print(f"| {label} | {r['playout']:,.0f} | {r['batch_16']:,.0f} | {r['batch_4096']:,.0f} | "
              f"{r['batch_4096_all']:,.0f} | {r['speed_up']:.2f} |", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
