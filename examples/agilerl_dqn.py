"""AgileRL: its DQN learns both seats of a game in self-play, on the compiled vector env.

    python3 -m venv .venv-agilerl && .venv-agilerl/bin/pip install torch==2.13.0
    .venv-agilerl/bin/pip install -e ".[agilerl]"
    .venv-agilerl/bin/python examples/agilerl_dqn.py linage --steps 50000

AgileRL's PettingZoo self-play tutorial writes its own vectorised two-player env. Here the env is
``gymnasium.make_vec`` of the single-agent env: many games stepped in compiled code, the seats
alternating game by game, the opponent's moves made inside the step by a batched callable, which is
the learning DQN itself (``get_action`` with the opponents' masks). The transitions are the agent's
own (its observation, its action, its next observation), so DQN's targets are of one player's
values, and one network learns both sides. AgileRL pins PettingZoo 1.26 and TensorDict 0.13, so it
lives in an environment of its own. The policy is measured against a random opponent with
``territory_envs.single.mean_return`` (its greedy legal action, both seats in turn).
"""
import argparse

import gymnasium
import numpy as np
import torch
from agilerl.algorithms.dqn import DQN
from agilerl.components.replay_buffer import ReplayBuffer
from tensordict import TensorDict

from territory_envs.single import gym_ids, mean_return


def flat(planes: np.ndarray) -> np.ndarray:
    """A batch of planes (n, H, W, C) as float32 rows."""
    return planes.reshape(len(planes), -1).astype(np.float32)


def train(name: str, steps: int = 20_000, envs: int = 16, seed: int = 0, epsilon_steps: int | None = None,
          opponent="self", **options) -> DQN:
    """DQN on one game for ``steps`` of the agent's moves, in self-play (or against ``opponent``,
    any opponent of the env); returns the DQN."""
    torch.manual_seed(seed)
    epsilon_steps = epsilon_steps or steps // 2  # epsilon falls from 1 to 0.05 over these
    probe = gymnasium.make(gym_ids()[name], obs_dtype="float32", **options)
    # the planes flattened: AgileRL takes a 3-D Box for channels-first images
    dqn = DQN(observation_space=gymnasium.spaces.flatten_space(probe.observation_space["observation"]),
              action_space=probe.action_space,
              net_config={"encoder_config": {"hidden_size": [128, 128]}}, batch_size=128, lr=1e-3,
              learn_step=1, gamma=0.99, tau=0.01, normalize_images=False)
    epsilon = 1.0

    def itself(observations, masks):  # the learning DQN, exploring as the agent does
        return dqn.get_action(flat(observations["observation"]), epsilon=epsilon, action_mask=masks)

    if isinstance(opponent, str) and opponent == "self":
        opponent = itself

    vec = gymnasium.make_vec(gym_ids()[name], num_envs=envs, opponent=opponent, obs_dtype="float32", **options)
    memory = ReplayBuffer(max_size=50_000)
    obs, info = vec.reset(seed=seed)
    for step in range(0, steps, envs):
        action = dqn.get_action(flat(obs["observation"]), epsilon=epsilon, action_mask=obs["action_mask"])
        next_obs, reward, terminated, truncated, info = vec.step(action)
        final = next_obs["observation"].copy()
        for e in np.flatnonzero(info.get("_final_obs", np.zeros(envs, bool))):
            final[e] = info["final_obs"][e]["observation"]  # the game that ended, not the next one's start
        memory.add(TensorDict({"obs": flat(obs["observation"]), "action": action, "reward": reward.astype(np.float32),
                               "next_obs": flat(final), "done": terminated.astype(np.float32)}, batch_size=[envs]))
        if len(memory) >= 1024:
            for _ in range(max(1, envs // 8)):  # one update for 8 moves
                dqn.learn(memory.sample(dqn.batch_size))
        obs = next_obs
        epsilon = max(0.05, 1.0 - 0.95 * (step + envs) / epsilon_steps)
    vec.close()
    return dqn


def greedy_policy(dqn: DQN):
    """The DQN's best legal action, for :func:`mean_return`."""
    def policy(observation, action_mask):
        return int(dqn.get_action(flat(observation["observation"][None]), epsilon=0.0, action_mask=action_mask[None])[0])
    return policy


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("game", nargs="?", default="lin")
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--board-size", type=int, default=None)
    parser.add_argument("--episodes", type=int, default=200)
    args = parser.parse_args()
    torch.set_num_threads(1)
    options = {} if args.board_size is None else {"board_size": args.board_size}
    dqn = train(args.game, steps=args.steps, **options)
    print(f"{args.game}: mean return against random (+1 a win, -1 a loss): "
          f"{mean_return(greedy_policy(dqn), args.game, args.episodes, **options):+.2f}")
