"""The batched env beside a busy process: does the default thread count degrade gracefully?

    python -m benchmarks.contention                      # Lin and Linage, 1,024 games, 5 s per row
    python -m benchmarks.contention --games lin,linage,lifeline,asli --seconds 3 --variants

Each row runs in a fresh interpreter that steps ``make_vec(game, 1024)`` with ``sample_actions()``
(200 steps first, then the mean steps per second over ``--seconds``), once on idle cores and once
beside a busy process this script starts (one Python process in an endless loop: a learner or a
second worker in an RL setup). The rows: the default (``num_threads=None``, which times its own
steps, ``territory_envs.core.threads``), one thread, and every core fixed (numba's own default).
``--variants`` adds the settings measured before the default was chosen, every core fixed under
another OpenMP wait policy, spin count or numba threading layer.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import numba

ROOT = Path(__file__).resolve().parent.parent
OPTIONS = {"lin": {"board_size": 9}, "linage": {"board_size": 9}, "lifeline": {"board_size": 6},
           "asli": {"board_size": 9}}

MEASURE = r'''
import json, sys, time
from territory_envs.vector import make_vec
game, options, threads, seconds = json.loads(sys.argv[1])
vec = make_vec(game, 1024, num_threads=threads, **options)
vec.reset(seed=0)
for _ in range(200):
    vec.step(vec.sample_actions())
steps, start = 0, time.perf_counter()
while time.perf_counter() - start < seconds:
    vec.step(vec.sample_actions())
    steps += 1024
print(json.dumps({"rate": steps / (time.perf_counter() - start), "threads": vec.threads.count}))
'''


def rows(max_threads: int, variants: bool):
    """(label, num_threads, extra environment) of every row."""
    out = [("default (tuned)", None, {}), ("num_threads=1", 1, {}),
           (f"num_threads={max_threads} (all cores)", max_threads, {})]
    if variants:
        out += [(f"num_threads={max_threads}, OMP_WAIT_POLICY=PASSIVE", max_threads, {"OMP_WAIT_POLICY": "PASSIVE"}),
                (f"num_threads={max_threads}, GOMP_SPINCOUNT=1000", max_threads, {"GOMP_SPINCOUNT": "1000"}),
                (f"num_threads={max_threads}, GOMP_SPINCOUNT=0", max_threads, {"GOMP_SPINCOUNT": "0"}),
                (f"num_threads={max_threads}, NUMBA_THREADING_LAYER=workqueue", max_threads,
                 {"NUMBA_THREADING_LAYER": "workqueue"})]
    return out


def measure(game: str, threads, extra: dict, seconds: float) -> dict:
    env = {**os.environ, "TERRITORY_ENVS_QUIET": "1", **extra}
    args = json.dumps([game, OPTIONS[game], threads, seconds])
    done = subprocess.run([sys.executable, "-c", MEASURE, args], cwd=ROOT, env=env, capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="lin,linage", help="comma-separated games (default: lin,linage)")
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds of stepping per row (default: 5)")
    parser.add_argument("--variants", action="store_true", help="also the OpenMP and numba settings not chosen")
    args = parser.parse_args(argv)
    games = args.games.split(",")
    unknown = [g for g in games if g not in OPTIONS]
    if unknown:
        parser.error(f"unknown games {unknown}; the games are {', '.join(OPTIONS)}")
    max_threads = numba.config.NUMBA_NUM_THREADS
    for game in games:
        measure(game, 1, {}, 0.05)  # compile into the cache before timing
    table = {}
    for busy in (False, True):
        hog = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if busy else None
        try:
            for game in games:
                for label, threads, extra in rows(max_threads, args.variants):
                    table[game, label, busy] = measure(game, threads, extra, args.seconds)
                    print(f"{game} {label} {'busy' if busy else 'idle'} done", file=sys.stderr, flush=True)
        finally:
            if hog is not None:
                hog.kill()
                hog.wait()
    print(f"make_vec(game, 1024) with sample_actions(), steps per second, mean over {args.seconds:g} s; "
          f"{os.cpu_count()} cores, numba {numba.__version__} ({max_threads} threads at most)\n")
    print("| game | threads | idle | beside a busy process | busy / idle | threads at the end (idle, busy) |")
    print("|---|---|---|---|---|---|")
    for game in games:
        for label, _, _ in rows(max_threads, args.variants):
            idle, busy = table[game, label, False], table[game, label, True]
            print(f"| {game} | {label} | {idle['rate']:,.0f} | {busy['rate']:,.0f} | "
                  f"{busy['rate'] / idle['rate']:.2f} | {idle['threads']}, {busy['threads']} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
