"""How long the first step of each game takes, with numba's cache empty (cold) and filled (warm).

::

    python -m benchmarks.first_use                 # all four games, AEC env and make_vec
    python -m benchmarks.first_use lin asli        # some games

Each figure is one fresh Python process, timed from before ``import territory_envs`` to the end of
the first step: ``make(name)``, ``reset``, one legal action (env); ``make_vec(name, 8)``, ``reset``,
``step`` (vector). Cold runs point ``NUMBA_CACHE_DIR`` at a new empty folder, so every kernel the
step needs compiles; the warm run repeats the same command with the folder the cold run filled.
``warmup`` is ``python -m territory_envs.warmup NAME`` in a new empty folder: the one-off cost of
compiling everything a game uses ahead. Prints a markdown table; without game names, then the
warmup of all four games one at a time (``--jobs 1``) and in parallel processes (the default).
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

GAMES = ("lin", "linage", "lifeline", "asli")

ENV_STEP = """
import numpy as np, territory_envs
env = territory_envs.make({name!r})
env.reset(seed=0)
env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
"""
VECTOR_STEP = """
import territory_envs
from territory_envs.vector import make_vec
vec = make_vec({name!r}, 8)
vec.reset(seed=0)
vec.step(vec.sample_actions())
"""


def timed(code: str, cache_dir: str, module: bool = False) -> float:
    """Seconds of one fresh interpreter running ``code`` (or ``-m code``) with that numba cache."""
    env = {**os.environ, "NUMBA_CACHE_DIR": cache_dir, "TERRITORY_ENVS_QUIET": "1"}
    argv = [sys.executable, "-m", *code.split()] if module else [sys.executable, "-c", code]
    start = time.perf_counter()
    subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def measure(name: str) -> dict:
    row = {}
    for kind, code in (("env", ENV_STEP), ("vector", VECTOR_STEP)):
        with tempfile.TemporaryDirectory() as cache:
            row[f"{kind} cold"] = timed(code.format(name=name), cache)
            row[f"{kind} warm"] = timed(code.format(name=name), cache)
    with tempfile.TemporaryDirectory() as cache:
        row["warmup"] = timed(f"territory_envs.warmup {name}", cache, module=True)
    return row


def main(argv: list[str]) -> None:
    games = argv or list(GAMES)
    columns = ("env cold", "env warm", "vector cold", "vector warm", "warmup")
    print(f"first step, seconds from a new interpreter ({os.cpu_count()} cores)\n")
    print("| game | " + " | ".join(columns) + " |")
    print("|---" * (len(columns) + 1) + "|")
    for name in games:
        row = measure(name)
        print(f"| {name} | " + " | ".join(f"{row[c]:.1f}" for c in columns) + " |", flush=True)
    if not argv:
        print("\nall four games ahead, from an empty cache:")
        for command in ("territory_envs.warmup --jobs 1", "territory_envs.warmup"):
            with tempfile.TemporaryDirectory() as cache:
                try:
                    print(f"  python -m {command}: {timed(command, cache, module=True):.1f} s", flush=True)
                except subprocess.CalledProcessError:
                    print(f"  python -m {command}: not supported at this commit", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
