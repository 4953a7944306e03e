"""Throughput of random play with an observation and a legal mask at every step.

    python benchmarks/throughput.py [--seconds 2] [--repeats 3] [--json out.json]

Rows: each game through ``env()`` (PettingZoo AEC, every check on) and through the raw state API
(``apply`` + ``observation`` + ``legal_mask``), beside PettingZoo's ``go_v5`` 9x9 measured in the same
run (extra ``bench``). Each figure is the median of ``--repeats`` timed runs of ``--seconds`` after a
warm-up. Also: the first step after import with numba's cache warm, and a cold run's compile time
(numba cache pointed at an empty folder), each in a fresh interpreter.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import territory_envs  # noqa: E402

# (label, game, options); cells per row as the per-step cost is compared against the cell count
ROWS = [
    ("lin 9x9", "lin", {"board_size": 9}),
    ("lin 13x13", "lin", {"board_size": 13}),
    ("lin 19x19", "lin", {"board_size": 19}),
    ("linage 9x9", "linage", {"board_size": 9}),
    ("linage 13x13", "linage", {"board_size": 13}),
    ("linage 19x19", "linage", {"board_size": 19}),
    ("lifeline side 5", "lifeline", {"board_size": 5}),
    ("lifeline side 6", "lifeline", {"board_size": 6}),
    ("lifeline side 7", "lifeline", {"board_size": 7}),
    ("lifeline side 12", "lifeline", {"board_size": 12}),
    ("asli 9x9", "asli", {"board_size": 9}),
    ("asli 13x13", "asli", {"board_size": 13}),
    ("asli 19x19", "asli", {"board_size": 19}),
]


def aec_loop(make_env, seconds: float, seed: int = 0):
    """Steps per second and CPU/wall of random play through an AEC env."""
    env = make_env()
    rng = random.Random(seed)  # cheaper than numpy's choice, so the envs dominate the timing
    steps, games = 0, 0
    wall0, cpu0 = time.perf_counter(), time.process_time()
    deadline = wall0 + seconds
    while time.perf_counter() < deadline:
        env.reset(seed=games)
        games += 1
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[int(rng.random() * len(legal))]))
            steps += 1
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    return steps / wall, cpu / wall


def state_loop(game, seconds: float, seed: int = 0):
    rng = random.Random(seed)
    steps = 0
    wall0, cpu0 = time.perf_counter(), time.process_time()
    deadline = wall0 + seconds
    while time.perf_counter() < deadline:
        state = game.new_state()
        while not state.is_terminal() and state.move_number < game.max_moves:
            player = state.current_player
            state.observation(player)
            legal = np.flatnonzero(state.legal_mask())
            state.apply(int(legal[int(rng.random() * len(legal))]))
            steps += 1
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    return steps / wall, cpu / wall


def measure(fn, seconds, repeats):
    fn(min(0.3, seconds))  # warm-up
    runs = [fn(seconds) for _ in range(repeats)]
    rate = statistics.median(r[0] for r in runs)
    cpu = statistics.median(r[1] for r in runs)
    return rate, cpu


FIRST_STEP = ("import time; t = time.perf_counter(); import territory_envs; "
              "e = territory_envs.make('lin'); e.reset(seed=0); e.step(40); e.observe('player_1'); "
              "print(time.perf_counter() - t)")


def first_step_seconds(cache_dir: str | None, code: str = FIRST_STEP) -> float:
    """Seconds printed by ``code`` in a fresh interpreter; with ``cache_dir``, numba's cache is
    there (an empty folder: a cold run, everything compiled)."""
    env = dict(os.environ)
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = cache_dir
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True,
                         cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return float(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="random-play throughput of territory-envs beside PettingZoo go")
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", default=None, help="write the results here")
    parser.add_argument("--games", default=None, help="comma-separated subset of games (default: all)")
    args = parser.parse_args(argv)

    results = []
    go_rate = None
    try:
        from pettingzoo.classic import go_v5
        go_rate, go_cpu = measure(lambda s: aec_loop(lambda: go_v5.env(board_size=9), s), args.seconds, args.repeats)
        results.append({"row": "pettingzoo go_v5 9x9", "api": "env()", "steps_per_s": go_rate, "cpu_per_wall": go_cpu})
    except ImportError:
        print("(pettingzoo[classic] not installed: no go_v5 row; pip install -e '.[bench]')")

    rows = [r for r in ROWS if args.games is None or r[1] in args.games.split(",")]
    for label, name, options in rows:
        module = __import__(f"territory_envs.{name}_v0", fromlist=["env"])
        rate, cpu = measure(lambda s: aec_loop(lambda: module.env(**options), s), args.seconds, args.repeats)
        results.append({"row": label, "api": "env()", "steps_per_s": rate, "cpu_per_wall": cpu,
                        "cells": territory_envs.make_game(name, **options).geometry.num_points})
        game = territory_envs.make_game(name, **options)
        rate, cpu = measure(lambda s: state_loop(game, s), args.seconds, args.repeats)
        results.append({"row": label, "api": "state", "steps_per_s": rate, "cpu_per_wall": cpu,
                        "cells": game.geometry.num_points})

    print(f"\nrandom play, observation + mask every step; median of {args.repeats} x {args.seconds:g} s; "
          f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}\n")
    print(f"{'row':<22}{'api':<8}{'steps/s':>12}{'us/step':>10}{'x go_v5 9x9':>13}{'cpu/wall':>10}")
    for r in results:
        ratio = f"{r['steps_per_s'] / go_rate:.1f}" if go_rate else "-"
        print(f"{r['row']:<22}{r['api']:<8}{r['steps_per_s']:>12,.0f}{1e6 / r['steps_per_s']:>10.1f}{ratio:>13}"
              f"{r['cpu_per_wall']:>10.2f}")

    # cost growth with the board: per-step cost of the largest board over the 9x9 one, per game and api
    print()
    for game in dict.fromkeys(name for _, name, _ in rows):
        for api in ("env()", "state"):
            rows = [r for r in results if r["api"] == api and r["row"].split()[0] == game]
            base = rows[0]
            for r in rows[1:]:
                cost = base["steps_per_s"] / r["steps_per_s"]
                print(f"{api:<6} {r['row']} vs {base['row']}: per-step cost x{cost:.2f} "
                      f"for x{r['cells'] / base['cells']:.2f} cells")

    with tempfile.TemporaryDirectory() as cold:
        cold_s = first_step_seconds(cold)
    first_step_seconds(None)  # make sure the default cache is warm
    warm_s = first_step_seconds(None)
    print(f"\nimport + make + reset + first step + observe: {warm_s:.2f} s with numba's cache warm, "
          f"{cold_s:.2f} s cold (compiling)")
    results.append({"row": "first step", "warm_cache_s": warm_s, "cold_compile_s": cold_s})
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
