"""Side-by-side speed of territory-envs and the systems users would otherwise pick, in one run.

    pip install -e ".[bench]"      # pettingzoo[classic], open-spiel, pgx with CPU jax
    python benchmarks/peers.py [--seconds 2] [--repeats 3] [--json peers.json]

Uniform random play with a legal mask and an observation at every step. Each figure is the median
of ``--repeats`` timed runs after a warm-up; ``cpu/wall`` (process CPU time over wall time) shows a
disturbed run (below 1 for a single-threaded peer means the machine was busy; above 1, threads).
The machine's speed also drifts over minutes (OpenSpiel has read 69k and 89k steps/s a quarter of
an hour apart), so each class runs its peers, then ours, then OpenSpiel again, and ``x openspiel``
is against the mean of OpenSpiel's two rows, whose gap shows the drift.

Peers: PettingZoo ``go_v5`` (AEC env), OpenSpiel ``go`` (at every step the observation filled in
place by ``open_spiel.python.observation.make_observation(game).set_from(state, player)``, the
headline ``x openspiel``, and once more read through ``observation_tensor()``, a new Python list
each step; a numpy mask filled from ``legal_actions()``), Pgx
``go_9x9``/``go_19x19`` on CPU (one game stepped by a jitted step, and vmapped batches of 256 and
1024 with auto-reset; the actions drawn by a jitted ``jax.random.categorical``). Ours: every
game's ``env()``, raw state API and batched env (256, 1024, 4096) at the 9x9-class size (Lin,
Linage, Asli 9x9; Lifeline side 6) and the 19x19-class size (19x19; Lifeline side 11). The
batched env is timed from its steady state: every game is first put at a random position of a
random game (``VectorEnv.spread_over_game_phases``), since after ``reset`` all games move in step and a
short window of a large batch would time only openings.
Also printed: the memory of 4096 games of each game at the 19x19-class size, and for each game
the time to import, make a batch of 1024 games, reset and take the first batched step in a fresh
interpreter, with numba's cache warm and cold (an empty cache folder: everything compiled).
Its actions come from ``VectorEnv.sample_actions`` (compiled, threaded, as Pgx draws in jit);
``--numpy-draw`` draws them in numpy instead (``argmax`` of random scores times the mask), as
earlier runs did. The peers that step one game draw in Python, through their own APIs.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import territory_envs  # noqa: E402
from benchmarks.throughput import aec_loop, first_step_seconds, state_loop  # noqa: E402


OURS = {"9x9": [("lin", {"board_size": 9}), ("linage", {"board_size": 9}), ("lifeline", {"board_size": 6}),
                ("asli", {"board_size": 9})],
        "19x19": [("lin", {"board_size": 19}), ("linage", {"board_size": 19}), ("lifeline", {"board_size": 11}),
                  ("asli", {"board_size": 19})]}


def timed(fn, seconds):
    """Run ``fn(deadline) -> steps`` once; steps/s and CPU/wall."""
    wall0, cpu0 = time.perf_counter(), time.process_time()
    steps = fn(wall0 + seconds)
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    return steps / wall, cpu / wall


def median_of(fn, seconds, repeats):
    timed(fn, min(0.5, seconds))  # warm-up (and compilation)
    runs = [timed(fn, seconds) for _ in range(repeats)]
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)


def openspiel_loop(size, in_place=True):
    """OpenSpiel's go, the observation read at every step either in place, as its own Python
    observers do (``make_observation(game).set_from(state, player)`` fills one numpy buffer: the
    fair reading, and the headline), or through ``observation_tensor()`` (a new Python list each
    step, copied into a numpy array)."""
    import pyspiel
    from open_spiel.python.observation import make_observation
    game = pyspiel.load_game(f"go(board_size={size})")
    observer = make_observation(game)
    obs = np.zeros(game.observation_tensor_size(), dtype=np.float32)
    mask = np.zeros(game.num_distinct_actions(), dtype=np.int8)
    rng = random.Random(0)

    def run(deadline):
        steps = 0
        while time.perf_counter() < deadline:
            state = game.new_initial_state()
            while not state.is_terminal():
                if in_place:
                    observer.set_from(state, state.current_player())  # observer.tensor is the buffer
                else:
                    obs[:] = state.observation_tensor()
                legal = state.legal_actions()
                mask[:] = 0
                mask[legal] = 1
                state.apply_action(legal[int(rng.random() * len(legal))])
                steps += 1
        return steps
    return run


def pgx_loop(name, batch):
    import jax
    import jax.numpy as jnp
    import pgx
    from pgx.experimental import auto_reset
    env = pgx.make(name)
    init = jax.jit(jax.vmap(env.init))
    step = jax.jit(jax.vmap(auto_reset(env.step, env.init)))

    @jax.jit
    def act(key, mask):
        return jax.random.categorical(key, jnp.where(mask, 0.0, -jnp.inf), axis=-1)

    def run(deadline):
        key = jax.random.PRNGKey(0)
        key, sub = jax.random.split(key)
        state = init(jax.random.split(sub, batch))
        steps = 0
        while time.perf_counter() < deadline:
            key, k1, k2 = jax.random.split(key, 3)
            action = act(k1, state.legal_action_mask)
            state = step(state, action, jax.random.split(k2, batch))
            state.observation.block_until_ready()
            steps += batch
        return steps
    return run


def vector_loop(game, batch, options, numpy_draw=False):
    from territory_envs.vector import make_vec
    vec = make_vec(game, batch, **options)
    rng = np.random.default_rng(0)
    vec.reset(seed=0)
    vec.spread_over_game_phases()  # the steady state, not the openings of games moving in step
    info = {"action_mask": vec.action_masks}

    def run(deadline):
        nonlocal info
        steps = 0
        while time.perf_counter() < deadline:
            if numpy_draw:  # argmax of random scores over the mask, in numpy on one thread
                mask = info["action_mask"]
                actions = np.argmax(rng.random(mask.shape, dtype=np.float32) * mask, axis=1)
            else:  # compiled and threaded, as Pgx draws inside jit
                actions = vec.sample_actions()
            obs, rewards, terminated, truncated, info = vec.step(actions)
            steps += batch
        return steps
    return run


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", default=None)
    parser.add_argument("--numpy-draw", action="store_true",
                        help="draw the batched env's actions in numpy instead of VectorEnv.sample_actions")
    args = parser.parse_args(argv)
    rows = []

    def add(label, cls, rate_cpu):
        rows.append({"row": label, "class": cls, "steps_per_s": rate_cpu[0], "cpu_per_wall": rate_cpu[1]})
        print(f"  {label:<40}{rate_cpu[0]:>14,.0f} steps/s  cpu/wall {rate_cpu[1]:.2f}", flush=True)

    print("measuring (steps per second):")
    for size, cls in ((9, "9x9"), (19, "19x19")):
        try:
            from pettingzoo.classic import go_v5
            add(f"pettingzoo go_v5 {size}x{size} env()", cls, _aec_median(lambda: go_v5.env(board_size=size), args))
        except ImportError:
            print("  (pettingzoo[classic] missing: no go_v5 rows)")
        try:
            add(f"openspiel go {size}x{size}", cls, median_of(openspiel_loop(size), args.seconds, args.repeats))
            add(f"openspiel go {size}x{size}, tensor as list", cls,
                median_of(openspiel_loop(size, in_place=False), args.seconds, args.repeats))
        except ImportError:
            print("  (open-spiel missing: no OpenSpiel rows)")
        try:
            name = f"go_{size}x{size}"
            add(f"pgx {name} cpu, one game", cls, median_of(pgx_loop(name, 1), args.seconds, args.repeats))
            for batch in (256, 1024):
                add(f"pgx {name} cpu, vmap {batch}", cls, median_of(pgx_loop(name, batch), args.seconds, args.repeats))
        except ImportError:
            print("  (pgx/jax missing: no Pgx rows)")
        for game, options in OURS[cls]:
            board = options["board_size"]
            label = f"{game} {'side ' + str(board) if game == 'lifeline' else f'{board}x{board}'}"
            module = __import__(f"territory_envs.{game}_v0", fromlist=["env"])
            add(f"{label} env()", cls, _aec_median(lambda: module.env(**options), args))
            g = territory_envs.make_game(game, **options)
            add(f"{label} state API", cls, _rate_median(lambda s: state_loop(g, s), args))
            for batch in (256, 1024, 4096):
                loop = vector_loop(game, batch, options, args.numpy_draw)
                add(f"{label} vector {batch}", cls, median_of(loop, args.seconds, args.repeats))
        try:  # the machine's speed drifts over minutes: OpenSpiel again, after our rows
            add(f"openspiel go {size}x{size}, again", cls, median_of(openspiel_loop(size), args.seconds, args.repeats))
        except ImportError:
            pass

    def best(prefix, cls):
        found = [r for r in rows if r["row"].startswith(prefix) and r["class"] == cls]
        return max(found, key=lambda r: r["steps_per_s"]) if found else None

    def openspiel_mean(cls):  # the mean of the in-place runs before and after our rows
        found = [r["steps_per_s"] for r in rows if r["row"].startswith("openspiel") and r["class"] == cls
                 and "as list" not in r["row"]]
        return {"steps_per_s": statistics.mean(found)} if found else None

    print(f"\n{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
          f"median of {args.repeats} x {args.seconds:g} s\n")
    header = f"{'row':<40}{'steps/s':>14}{'x openspiel':>13}{'x pgx best':>12}{'x pz go':>10}{'cpu/wall':>10}"
    print(header)
    for cls in ("9x9", "19x19"):
        spiel = openspiel_mean(cls)
        pgx_best = best("pgx", cls)
        pz = best("pettingzoo", cls)
        for r in (r for r in rows if r["class"] == cls):
            ratios = [f"{r['steps_per_s'] / p['steps_per_s']:.1f}" if p else "-" for p in (spiel, pgx_best, pz)]
            print(f"{r['row']:<40}{r['steps_per_s']:>14,.0f}{ratios[0]:>13}{ratios[1]:>12}{ratios[2]:>10}"
                  f"{r['cpu_per_wall']:>10.2f}")
        print()
    memory, first = footprint(OURS)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"rows": rows, "memory_4096_19x19_mib": memory, "first_batched_step_s": first}, f, indent=1)
    return 0


def footprint(ours=OURS):
    """Memory of 4096 games of each game at the 19x19-class size, and the first batched step of
    each game at the 9x9-class size in a fresh interpreter, numba's cache warm and cold; printed
    and returned as ``(memory, first)``."""
    from territory_envs.vector import make_vec
    memory = {}
    for game, options in ours["19x19"]:
        vec = make_vec(game, 4096, **options)
        vec.reset(seed=0)
        memory[game] = vec.memory_bytes() / 2**20
    print("memory of a batch of 4096 games at the 19x19-class size: "
          + ", ".join(f"{game} {mib:.1f} MiB" for game, mib in memory.items()))
    first = {}
    for game, options in ours["9x9"]:
        code = FIRST_BATCH_STEP.format(game=game, options=options)
        first_step_seconds(None, code)  # fills the cache if an edit of the sources cleared it
        with tempfile.TemporaryDirectory() as cold:
            first[game] = {"warm_s": first_step_seconds(None, code), "cold_s": first_step_seconds(cold, code)}
    print("import + make_vec(1024 games) + reset + first batched step, 9x9 class:")
    for game, t in first.items():
        print(f"  {game}: {t['warm_s']:.2f} s with numba's cache warm, {t['cold_s']:.1f} s cold (compiling)")
    return memory, first


FIRST_BATCH_STEP = ("import time; t = time.perf_counter(); from territory_envs.vector import make_vec; "
                    "v = make_vec({game!r}, 1024, **{options!r}); v.reset(seed=0); v.step(v.sample_actions()); "
                    "print(time.perf_counter() - t)")


def _rate_median(fn, args):
    fn(min(0.5, args.seconds))
    runs = [fn(args.seconds) for _ in range(args.repeats)]
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)


def _aec_median(make_env, args):
    return _rate_median(lambda s: aec_loop(make_env, s), args)


if __name__ == "__main__":
    raise SystemExit(main())
