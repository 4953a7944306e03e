"""Speed of the agents' hot paths, one core.

    python benchmarks/agent_speed.py [--seconds 2] [--repeats 3] [--json out.json]

Rows per game at its 9x9-class size (Lin, Linage, Asli 9x9; Lifeline side 5, its default, and
side 6) and at 19x19: compiled random playouts (``GameState.rollout``) from the empty board and
from positions of random games (rollout moves per second, one thread), MCTS playouts per second
(``mcts:256`` searches, tree and playouts together) and the time of one ``greedy`` move. Each
figure is the median of ``--repeats`` timed runs after a warm-up; CPU time per wall time is
printed so a disturbed run shows.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numba  # noqa: E402

import territory_envs  # noqa: E402
from agents import make_agent  # noqa: E402

ROWS = [
    ("lin 9x9", "lin", {"board_size": 9}),
    ("linage 9x9", "linage", {"board_size": 9}),
    ("lifeline side 5", "lifeline", {"board_size": 5}),
    ("lifeline side 6", "lifeline", {"board_size": 6}),
    ("asli 9x9", "asli", {"board_size": 9}),
    ("lin 19x19", "lin", {"board_size": 19}),
    ("linage 19x19", "linage", {"board_size": 19}),
    ("lifeline side 11", "lifeline", {"board_size": 11}),
    ("asli 19x19", "asli", {"board_size": 19}),
]


def sample_states(game, count=20, seed=0):
    """The empty board and positions along seeded random games (every 5th move)."""
    rng = np.random.default_rng(seed)
    states = [game.new_state()]
    while len(states) < count:
        state = game.new_state()
        while not state.terminal and len(states) < count:
            state.apply(int(rng.choice(state.legal_actions())))
            if state.move_number % 5 == 0 and not state.terminal:
                states.append(state.clone())
    return states


def timed(run, seconds):
    """(units per second, cpu/wall) of ``run()`` (which returns units done) for ``seconds``."""
    units = 0
    wall0, cpu0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - wall0 < seconds:
        units += run()
    wall = time.perf_counter() - wall0
    return units / wall, (time.process_time() - cpu0) / wall


def median_of(run, seconds, repeats):
    run()  # warm-up (compiles on a cold cache)
    results = [timed(run, seconds) for _ in range(repeats)]
    return statistics.median(r[0] for r in results), statistics.median(r[1] for r in results)


def measure(name, options, seconds, repeats):
    game = territory_envs.make_game(name, **options)
    empty = game.new_state()
    states = sample_states(game)
    seeds = iter(range(1 << 30))
    out = {}
    out["rollout_empty"], cpu1 = median_of(lambda: empty.rollout_with_length(next(seeds))[1], seconds, repeats)
    out["rollout_mid"], cpu2 = median_of(
        lambda: sum(s.rollout_with_length(next(seeds))[1] for s in states), seconds, repeats)
    mcts = make_agent("mcts:256", seed=0)
    mcts.reuse_tree = False

    def search():
        mcts.act(states[len(states) // 2])
        return mcts.last_search.get("playouts", 0)
    out["mcts_playouts"], cpu3 = median_of(search, seconds, repeats)
    greedy = make_agent("greedy", seed=0)
    out["greedy_moves"], cpu4 = median_of(lambda: (greedy.act(states[len(states) // 2]), 1)[1], seconds, repeats)
    out["cpu_per_wall"] = max(cpu1, cpu2, cpu3, cpu4)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", help="write the figures to this file")
    parser.add_argument("--rows", default="", help="comma-separated row labels to run (default: all)")
    args = parser.parse_args(argv)
    numba.set_num_threads(1)  # one core: the compiled kernels' parallel loops too (set here, not in the
    #                           environment at import, so that importing sample_states changes nothing)
    wanted = {r.strip() for r in args.rows.split(",") if r.strip()}
    print("| row | rollout moves/s (empty board) | rollout moves/s (mid-game) | mcts playouts/s | "
          "greedy moves/s | cpu/wall |")
    print("|---|---|---|---|---|---|")
    results = {}
    for label, name, options in ROWS:
        if wanted and label not in wanted:
            continue
        r = measure(name, options, args.seconds, args.repeats)
        results[label] = r
        print(f"| {label} | {r['rollout_empty']:,.0f} | {r['rollout_mid']:,.0f} | {r['mcts_playouts']:,.0f} | "
              f"{r['greedy_moves']:,.0f} | {r['cpu_per_wall']:.2f} |", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
