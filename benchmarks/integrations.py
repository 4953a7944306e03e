"""What each library's example learns in self-play on a small budget: the mean return of its policy
against a random opponent, the seats alternating (``territory_envs.single.mean_return``).

::

    python -m benchmarks.integrations                                  # torchrl and tianshou, every game
    .venv-agilerl/bin/python -m benchmarks.integrations --libraries agilerl

Each example (``examples/torchrl_ppo.py``, ``tianshou_ppo.py``, ``agilerl_dqn.py``) trains one policy
on both seats for the same number of the agent's moves (``--steps``) on the small boards of the
integration tests, on one torch thread. A random policy's own mean return is printed beside them
(about 0: neither seat's advantage counts, as the seats alternate). AgileRL pins PettingZoo 1.26,
so its row comes from its own environment (README, "AgileRL").
"""
from __future__ import annotations

import argparse
import importlib.metadata
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))

SMALL = {"lin": {"board_size": 5, "line_length": 3}, "linage": {"board_size": 5},
         "lifeline": {"board_size": 3}, "asli": {"board_size": 5}}


def random_policy(seed: int = 0):
    rng = np.random.default_rng(seed)
    return lambda observation, action_mask: int(rng.choice(np.flatnonzero(action_mask)))


def trained_policy(library: str, game: str, steps: int, seed: int):
    """Train the library's example for ``steps`` of the agent's moves; its greedy policy."""
    if library == "torchrl":
        import torchrl_ppo as example
        return example.greedy_policy(example.train(game, batches=max(1, steps // 1000), frames_per_batch=1000,
                                                   seed=seed, **SMALL[game]))
    if library == "tianshou":
        import tianshou_ppo as example
        _, algorithm, _ = example.train(game, epochs=max(1, steps // 2000), epoch_steps=2000, seed=seed,
                                        test_episodes=4, **SMALL[game])
        actor = algorithm.policy.actor
        from territory_envs.tianshou import self_play_opponent
        return self_play_opponent(actor, greedy=True)
    if library == "agilerl":
        import agilerl_dqn as example
        return example.greedy_policy(example.train(game, steps=steps, epsilon_steps=steps // 4, seed=seed,
                                                   **SMALL[game]))
    raise ValueError(f"library {library!r}: expected torchrl, tianshou or agilerl")


def version(library: str) -> str:
    return importlib.metadata.version(library)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--libraries", default="torchrl,tianshou", help="comma-separated: torchrl, tianshou, agilerl")
    parser.add_argument("--games", default=",".join(SMALL))
    parser.add_argument("--steps", type=int, default=20_000, help="the agent's moves of training (default: 20000)")
    parser.add_argument("--episodes", type=int, default=200, help="games against random per figure")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    import torch
    torch.set_num_threads(1)
    from territory_envs.single import mean_return

    games = [g.strip() for g in args.games.split(",") if g.strip()]
    unknown = [g for g in games if g not in SMALL]
    if unknown:
        raise SystemExit(f"--games: unknown {unknown}; expected some of {sorted(SMALL)}")
    print("| library | game | options | moves of training | mean return vs random | a random policy's |")
    print("|---|---|---|---|---|---|")
    for library in [name.strip() for name in args.libraries.split(",") if name.strip()]:
        for game in games:
            policy = trained_policy(library, game, args.steps, args.seed)
            score = mean_return(policy, game, args.episodes, seed=args.seed + 1, **SMALL[game])
            baseline = mean_return(random_policy(args.seed), game, args.episodes, seed=args.seed + 1, **SMALL[game])
            board = ", ".join(f"{key}={value}" for key, value in SMALL[game].items())
            print(f"| {library} {version(library)} | {game} | {board} | {args.steps:,} | "
                  f"{score:+.2f} | {baseline:+.2f} |", flush=True)


if __name__ == "__main__":
    main()
