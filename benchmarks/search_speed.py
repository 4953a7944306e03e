"""Simulations per second of the tree searches, the network replaced by a constant stub.

The stub returns uniform priors over the legal actions and a value of 0, so the table measures the
search alone: selection, the games' turns, observations, expansion and backup. Rows: the compiled
batched search (``agents/az/tree_search.py``, Gumbel and PUCT) and the Python tree of
``agents/az/search.py`` (PUCT), each over ``--trees`` positions searched together, every 5th move
of seeded random games (``benchmarks.agent_speed.sample_states``), with ``--sims`` simulations
each, on ``--threads`` threads (numba's; the Python tree runs on one).

    python -m benchmarks.search_speed --threads 1
"""
from __future__ import annotations

import argparse
import time

import numba
import numpy as np

from agents.az.search import BatchedSearch, Node
from agents.az.tree_search import TreeSearch
from benchmarks.agent_speed import sample_states
from territory_envs import make_game

ROWS = {"lin 9x9": ("lin", {"board_size": 9}), "linage 9x9": ("linage", {"board_size": 9}),
        "lifeline side 5": ("lifeline", {}), "asli 9x9": ("asli", {"board_size": 9})}


def constant_network(planes, masks):
    masks = masks.astype(np.float64)
    return masks / masks.sum(1, keepdims=True), np.zeros(len(planes))


class _ConstantNet:  # the Python tree calls agents.az.network.evaluate(net, planes, masks)
    pass


def compiled_rate(game, states, sims, rule, seconds):
    search = TreeSearch(game, len(states), sims, constant_network, rule=rule, seed=0)
    for b, state in enumerate(states):
        search.load(b, state)
    search.run()  # compile or load, and warm
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for b, state in enumerate(states):
            search.load(b, state)
        search.run()
        done += len(states) * sims
    return done / (time.perf_counter() - start)


def python_rate(game, states, sims, seconds):
    import agents.az.search as python_search
    evaluate = python_search.evaluate
    python_search.evaluate = lambda net, planes, masks: constant_network(planes, masks)
    try:
        search = BatchedSearch(_ConstantNet())
        done, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            roots = [Node(state.clone()) for state in states]
            search.run(roots, [sims] * len(roots))
            done += len(states) * sims
        return done / (time.perf_counter() - start)
    finally:
        python_search.evaluate = evaluate


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default=",".join(ROWS), help="comma-separated rows: " + ", ".join(ROWS))
    parser.add_argument("--trees", type=int, default=64)
    parser.add_argument("--sims", type=int, default=64)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args(argv)
    numba.set_num_threads(args.threads)
    print(f"simulations per second, constant network, {args.trees} trees x {args.sims} simulations, "
          f"{args.threads} thread(s) for the compiled search\n")
    print("| row | compiled Gumbel | compiled PUCT | Python PUCT | compiled Gumbel / Python |")
    print("|---|---|---|---|---|")
    for row in args.rows.split(","):
        name, options = ROWS[row]
        game = make_game(name, **options)
        states = [s for s in sample_states(game, args.trees + 1, seed=0) if s.move_number > 0]
        gumbel = compiled_rate(game, states, args.sims, "gumbel", args.seconds)
        puct = compiled_rate(game, states, args.sims, "puct", args.seconds)
        python = python_rate(game, states, args.sims, args.seconds)
        print(f"| {row} | {gumbel:,.0f} | {puct:,.0f} | {python:,.0f} | {gumbel / python:.0f}x |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
