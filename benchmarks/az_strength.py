"""How strong a trained network is: matches against the baseline ladder, both sides equally.

::

    python -m benchmarks.az_strength lin --games 200 \
        --against "az:runs/lin:sims=0=random" "az:runs/lin=greedy" "az:runs/lin=mcts:256"

Each ``A=B`` (or ``"A vs B"``, for an opponent whose spec holds ``=`` itself) plays ``--games``
games of A against B (A first in half of them), each pair of games opening with ``--opening``
uniformly random moves shared by both (so that deterministic agents play varied games), over
``--workers`` processes (spawned, one torch and numba thread each, as the arena's: a forked child
of a process that already ran torch or numba threads can abort). Prints A's score (wins + draws
/ 2) with its 95% Wilson interval and the Elo difference it means.

A game's seeds and sides come from its index in the match alone, so ``--first N`` plays games ``N``
to ``N + games - 1`` of the same match: ``--games 60`` then ``--first 60 --games 140`` are the 200
games of ``--games 200``, and their points (the table's ``points`` column) add up.
"""
from __future__ import annotations

import argparse
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

from agents import make_agent, play_game
from agents.az.train import elo
from agents.stats import wilson_interval
from agents.threads import start_worker
from territory_envs import make_game


def _play(task):
    game_name, a, b, index, opening = task
    game = make_game(game_name)
    agents = (make_agent(a, seed=2 * index), make_agent(b, seed=2 * index + 1))
    result = play_game(game, agents, swap_sides=bool(index % 2), seed=index // 2, opening=opening)
    return 1.0 if result.winner == 0 else 0.5 if result.winner < 0 else 0.0


def match(game_name: str, a: str, b: str, games: int, opening: int, workers: int, first: int = 0) -> dict:
    tasks = [(game_name, a, b, i, opening) for i in range(first, first + games)]
    with ProcessPoolExecutor(workers, mp_context=get_context("spawn"), initializer=start_worker, initargs=(1,)) as pool:
        scores = list(pool.map(_play, tasks))
    score = sum(scores)
    low, high = wilson_interval(score, games)
    rate = score / games
    return {"a": a, "b": b, "games": games, "points": score, "score": rate, "low": low, "high": high,
            "elo": elo(rate, games)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("game")
    parser.add_argument("--against", nargs="+", required=True, metavar="A=B")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--opening", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--first", type=int, default=0, help="index of the first game (default 0): extends a match")
    args = parser.parse_args()
    which = f"games {args.first}-{args.first + args.games - 1}" if args.first else f"{args.games} games"
    print(f"{args.game}: {which} per match, both sides equally, {args.opening} random opening moves\n")
    print("| agent | opponent | games | points | score | 95% interval | Elo difference |")
    print("|---|---|---|---|---|---|---|")
    for pair in args.against:
        a, _, b = pair.partition(" vs ") if " vs " in pair else pair.rpartition("=")
        r = match(args.game, a, b, args.games, args.opening, args.workers, args.first)
        print(f"| `{a}` | `{b}` | {r['games']} | {r['points']:g} | {r['score']:.3f} | {r['low']:.3f}-{r['high']:.3f} "
              f"| {r['elo']:+.0f} |", flush=True)


if __name__ == "__main__":
    main()
