"""Stable-Baselines3: MaskablePPO (sb3-contrib) on Lin against an opponent inside the env.

    pip install -e ".[sb3]"
    python examples/sb3_maskable_ppo.py --steps 20000

The env is a plain ``gymnasium.Env`` (``gymnasium.make("territory_envs/Lin-v0", ...)``) whose
``action_masks()`` sb3-contrib reads; its Dict observation goes to ``MultiInputPolicy``.
"""
import argparse

import gymnasium
import numpy as np
from sb3_contrib import MaskablePPO

import territory_envs  # noqa: F401  (registers territory_envs/Lin-v0 and the others)
from territory_envs import SingleAgentEnv


def train(steps: int, seed: int = 0, opponent="random", **options) -> MaskablePPO:
    env = gymnasium.make("territory_envs/Lin-v0", opponent=opponent, obs_dtype="float32", **options)
    model = MaskablePPO("MultiInputPolicy", env, n_steps=256, batch_size=64, seed=seed, verbose=0)
    return model.learn(total_timesteps=steps)


def win_rate(model: MaskablePPO, games: int, opponent="random", **options) -> float:
    """The trained policy's score (a draw counts a half) over ``games``, both seats in turn."""
    env = SingleAgentEnv("lin", opponent=opponent, obs_dtype="float32", **options)
    env.reset(seed=12345)
    score = 0.0
    for _ in range(games):
        obs, _ = env.reset()
        while True:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, reward, terminated, truncated, _ = env.step(int(action))
            if terminated or truncated:
                score += (reward + 1) / 2
                break
    return score / games


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    options = {"board_size": 5, "line_length": 3}
    model = train(args.steps, **options)
    for opponent in ("random", "greedy"):
        print(f"MaskablePPO after {args.steps} steps vs {opponent}: {win_rate(model, args.games, opponent, **options):.2f}")
