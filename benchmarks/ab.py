"""Interleaved A/B speed of two commits: does a change make any step slower?

    python -m benchmarks.ab 57685a1              # that commit (A) against the working tree (B)
    python -m benchmarks.ab 57685a1 --rounds 7 --seconds 1.5 --games lin,asli

Commit A is checked out in a temporary git worktree; each round runs one fresh interpreter per
side (A then B, B then A in the next round, so that neither side always runs first) that times
uniform random play at the 9x9-class size (Lin, Linage, Asli 9x9; Lifeline side 6) through the
AEC env (``env()``), the state API and a batch of 1,024 games. Both sides run the same measuring
code (this file's ``MEASURE``) against their own ``territory_envs``. Printed: the median steps per
second of each row on each side and ``B / A``; a drift of the machine hits both sides alike.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ROWS = [("lin", {"board_size": 9}), ("linage", {"board_size": 9}), ("lifeline", {"board_size": 6}),
        ("asli", {"board_size": 9})]

# run in a fresh interpreter with the side's territory_envs first on sys.path; prints one JSON line
MEASURE = r'''
import json, random, sys, time
import numpy as np
import territory_envs
from territory_envs.vector import make_vec
rows, seconds = json.loads(sys.argv[1]), float(sys.argv[2])
out = {"path": territory_envs.__file__}

def env_rate(game, options):
    env = territory_envs.make(game, **options)
    rng = random.Random(0)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=steps)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[int(rng.random() * len(legal))]))
            steps += 1
    return steps / (time.perf_counter() - start)

def state_rate(game, options):
    g = territory_envs.make_game(game, **options)
    rng = random.Random(0)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = g.new_state()
        while not state.terminal and state.move_number < g.max_moves:
            state.observation(state.current_player)
            legal = np.flatnonzero(state.legal_mask())
            state.apply(int(legal[int(rng.random() * len(legal))]))
            steps += 1
    return steps / (time.perf_counter() - start)

def vector_rate(game, options):
    vec = make_vec(game, 1024, **options)
    vec.reset(seed=0)
    for _ in range(200):  # past the openings every game plays at once after reset
        vec.step(vec.sample_actions())
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        vec.step(vec.sample_actions())
        steps += 1024
    return steps / (time.perf_counter() - start)

for game, options in rows:
    for kind, fn in (("env()", env_rate), ("state API", state_rate), ("vector 1024", vector_rate)):
        out[f"{game} {kind}"] = fn(game, options)
print(json.dumps(out))
'''


def run_side(tree: Path, seconds: float, rows) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree), "TERRITORY_ENVS_QUIET": "1"}
    done = subprocess.run([sys.executable, "-c", MEASURE, json.dumps(rows), str(seconds)], cwd=tree, env=env,
                          capture_output=True, text=True, check=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    path = result.pop("path")
    if not path.startswith(str(tree)):
        raise RuntimeError(f"the side at {tree} imported territory_envs from {path}")
    return result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("commit", help="commit A (B is the working tree)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0, help="time per row and side in each round")
    parser.add_argument("--games", default="lin,linage,lifeline,asli", help="comma-separated games to time")
    args = parser.parse_args(argv)
    rows = [(game, options) for game, options in ROWS if game in args.games.split(",")]
    with tempfile.TemporaryDirectory() as folder:
        tree_a = Path(folder) / "a"
        subprocess.run(["git", "worktree", "add", "--detach", str(tree_a), args.commit], cwd=ROOT, check=True,
                       capture_output=True)
        try:
            sides = {"A": tree_a, "B": ROOT}
            for tree in sides.values():  # compile both sides' kernels into their caches first
                run_side(tree, 0.05, rows)
            runs = {"A": [], "B": []}
            for r in range(args.rounds):
                for side in ("A", "B") if r % 2 == 0 else ("B", "A"):
                    runs[side].append(run_side(sides[side], args.seconds, rows))
                print(f"round {r + 1} of {args.rounds} done", file=sys.stderr, flush=True)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree_a)], cwd=ROOT, capture_output=True)
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                          text=True).stdout.strip()
    print(f"A = {args.commit}, B = the working tree at {head}; median of {args.rounds} interleaved rounds of "
          f"{args.seconds:g} s per row\n")
    print("| row | A (steps/s) | B (steps/s) | B / A |")
    print("|---|---|---|---|")
    for row in runs["A"][0]:
        a = statistics.median(run[row] for run in runs["A"])
        b = statistics.median(run[row] for run in runs["B"])
        print(f"| {row} | {a:,.0f} | {b:,.0f} | {b / a:.3f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
