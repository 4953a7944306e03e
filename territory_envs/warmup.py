"""Compile the games' numba kernels ahead, so that no later run waits for them.

::

    python -m territory_envs.warmup                  # all four games, AEC env, state API and batched env
    python -m territory_envs.warmup lifeline asli    # some games
    python -m territory_envs.warmup --no-vector      # skip make_vec's batched kernels (about 40% of the time)
    python -m territory_envs.warmup --jobs 1         # one game at a time (default: one process per core)

Numba compiles a kernel the first time it runs and keeps the machine code in its on-disk cache
(``__pycache__`` beside the sources, or ``NUMBA_CACHE_DIR``); a later process loads it in a
fraction of a second. Without this step the first use of each game waits for it instead: about 4 s
for Lin, 12 s for Linage, 24 s for Lifeline and 26 s for Asli with the AEC env, and 9, 21, 35 and
43 s with ``make_vec`` (2 cores; BENCHMARKS.md, "First use"). All four games take about 65 s on
2 cores (120 s with ``--jobs 1``). Run it once after installing or
upgrading, as the user who will play (the cache must be writable), on the machine that will play:
the cache is tied to the CPU and to numba's version, so it cannot ship in a wheel.

For each game it plays, with default options: a whole random game through the AEC env; the state
API (``new_state``, ``apply``, ``observation``, ``clone``, ``to_dict``/``state_from_dict``, and
``rollout`` and ``rollout_with_length`` with a trace, the playouts of ``agents.mcts``); and, unless
``--no-vector``, ``make_vec(name, 8)`` ``reset``/``sample_actions``/``step``. Other board sizes
and options use the same compiled code. It prints one line per game with the seconds it took
(a game already cached takes well under a second). Exit code 0, or 2 for an unknown game.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np


def warm_env(name: str, max_steps: int = 2000) -> None:
    """A whole game of uniformly random legal actions through the AEC env."""
    from . import make
    env = make(name)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for steps, _agent in enumerate(env.agent_iter()):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
        elif steps >= max_steps:
            break
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    env.close()


def warm_state_api(name: str, moves: int = 12) -> None:
    """The docs/spec.md state API and the compiled playouts of ``agents.mcts``."""
    from . import make_game
    game = make_game(name)
    state = game.new_state()
    rng = np.random.default_rng(1)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.observation(0)
        state.observation(1)
        child = state.clone()
        child.apply(int(rng.choice(state.legal_actions())))
        state = child
    game.state_from_dict(state.to_dict())
    state.rollout(0)
    state.rollout(1, uniform=True)
    state.rollout_with_length(2, np.zeros((2, game.max_moves), dtype=np.int32))
    game.new_state(swap_sides=True).rollout(3)


def warm_vector(name: str, num_envs: int = 8, steps: int = 40) -> None:
    """``make_vec``'s batched kernels: reset, random actions, steps (games end and restart)."""
    from .vector import make_vec
    vec = make_vec(name, num_envs)
    vec.reset(seed=0)
    for _ in range(steps):
        vec.step(vec.sample_actions())


def warm(name: str, vector: bool = True) -> float:
    """Compile (or load) ``name``'s kernels; returns the seconds it took."""
    from .core import compile_cache
    compile_cache._announced.update({(name, "env"), (name, "vector")})  # this command says it instead
    start = time.perf_counter()
    warm_env(name)
    warm_state_api(name)
    if vector:
        warm_vector(name)
    return time.perf_counter() - start


def _warm_in_worker(name: str, vector: bool) -> tuple[str, float]:
    return name, warm(name, vector=vector)


def warm_in_parallel(names: list[str], vector: bool, jobs: int, report) -> None:
    """:func:`warm` the games in ``jobs`` processes, the slowest to compile first; ``report(name,
    seconds)`` as each ends. Two processes that compile a shared kernel at once may each rewrite
    numba's index of it and drop the other's entry, so the caller warms every game once more in
    its own process: that loads what is cached and compiles what was dropped."""
    import concurrent.futures
    import multiprocessing

    from .core.declaration import declared
    order = sorted(names, key=lambda n: -(declared(n).cold_seconds or (0, 0))[1])
    with concurrent.futures.ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        for done in concurrent.futures.as_completed([pool.submit(_warm_in_worker, n, vector) for n in order]):
            report(*done.result())


def main(argv: list[str] | None = None) -> int:
    from .core.compile_cache import kernels_cached
    from .core.declaration import declared
    from .registry import game_names
    parser = argparse.ArgumentParser(prog="python -m territory_envs.warmup",
                                     description="Compile the games' numba kernels into numba's cache ahead of use.")
    parser.add_argument("games", nargs="*", metavar="GAME", help=f"games to compile (default: all of {', '.join(game_names())})")
    parser.add_argument("--no-vector", dest="vector", action="store_false",
                        help="skip the batched env of territory_envs.vector (make_vec)")
    parser.add_argument("--jobs", type=int, default=None, metavar="N",
                        help="games compiled at once, each in its own process (default: one per core, at most "
                             "one per game)")
    args = parser.parse_args(argv)
    unknown = [g for g in args.games if g not in game_names()]
    if unknown:
        parser.error(f"unknown game(s) {', '.join(unknown)}; the games are {', '.join(game_names())}")
    if args.jobs is not None and args.jobs < 1:
        parser.error(f"--jobs must be at least 1, not {args.jobs}")
    start = time.perf_counter()
    names = list(dict.fromkeys(args.games or game_names()))
    todo = [n for n in names if not (kernels_cached(n) and (not args.vector or kernels_cached(n, vector=True)))]
    for name in todo:
        cold = declared(name).cold_seconds
        usual = f" (usually about {cold[1 if args.vector else 0]} s on 2 cores)" if cold else ""
        print(f"{name}: compiling{usual} ...", flush=True)
    jobs = min(args.jobs or os.cpu_count() or 1, len(todo))
    if jobs > 1:
        warm_in_parallel(todo, args.vector, jobs,
                         lambda name, seconds: print(f"{name}: {seconds:.1f} s (compiled and cached)", flush=True))
    for name in names:  # (after parallel workers: loads, and compiles what they dropped)
        seconds = warm(name, vector=args.vector)
        if jobs <= 1 or name not in todo:
            print(f"{name}: {seconds:.1f} s ({'compiled and cached' if name in todo else 'loaded from the cache'})",
                  flush=True)
    print(f"done in {time.perf_counter() - start:.1f} s; later runs load these kernels from numba's cache", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
