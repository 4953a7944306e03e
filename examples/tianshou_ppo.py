"""Tianshou 2.x: its stock PPO learns both seats of a game in self-play, and is measured against random.

    pip install -e ".[tianshou]"
    python examples/tianshou_ppo.py lifeline --epochs 10

The env is the single-agent one (``gymnasium.make("territory_envs/Lin-v0", ...)``); its opponent is
the learning actor itself (``self_play_opponent``), and its seat alternates from one episode to the
next, so one policy learns both sides. ``territory_envs.tianshou`` gives PPO the masked actor and
critic Tianshou lacks for a Dict observation. Each epoch's test plays the policy (its likeliest
legal action) against a random opponent, both seats in turn.
"""
import argparse

import gymnasium
import numpy as np
import torch
from tianshou.algorithm import PPO
from tianshou.algorithm.modelfree.reinforce import ProbabilisticActorPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, CollectStats, VectorReplayBuffer
from tianshou.env import DummyVectorEnv
from tianshou.trainer import OnPolicyTrainerParams
from tianshou.utils.net.common import Net
from tianshou.utils.net.discrete import DiscreteActor, DiscreteCritic

from territory_envs.single import gym_ids
from territory_envs.tianshou import MaskedActor, PlanesCritic, masked_categorical, self_play_opponent


def train(name: str, epochs: int = 5, epoch_steps: int = 2000, seed: int = 0, envs: int = 4,
          test_episodes: int = 20, **options):
    """Self-play PPO on one game; returns (the training result, the algorithm, its mean test return
    against random after each epoch)."""
    torch.manual_seed(seed)
    np.random.seed(seed)

    def make(opponent):
        return lambda: gymnasium.make(gym_ids()[name], opponent=opponent, obs_dtype="float32", **options)

    probe = make("random")()
    planes, actions = probe.observation_space["observation"].shape, probe.action_space.n
    actor = MaskedActor(DiscreteActor(preprocess_net=Net(state_shape=planes, hidden_sizes=[128, 128]),
                                      action_shape=actions, softmax_output=False))
    critic = PlanesCritic(DiscreteCritic(preprocess_net=Net(state_shape=planes, hidden_sizes=[128, 128])))
    policy = ProbabilisticActorPolicy(actor=actor, dist_fn=masked_categorical, action_space=probe.action_space,
                                      action_scaling=False, deterministic_eval=True)
    algorithm = PPO(policy=policy, critic=critic, optim=AdamOptimizerFactory(lr=3e-4), gamma=0.99,
                    ent_coef=0.01, max_grad_norm=0.5)

    train_envs = DummyVectorEnv([make(self_play_opponent(actor, seed=seed + i)) for i in range(envs)])
    test_envs = DummyVectorEnv([make("random") for _ in range(envs)])
    train_envs.seed(seed)
    test_envs.seed(seed + 1000)
    training_collector = Collector[CollectStats](algorithm, train_envs, VectorReplayBuffer(4096, envs))
    test_collector = Collector[CollectStats](algorithm, test_envs)
    returns = []
    result = algorithm.run_training(OnPolicyTrainerParams(
        training_collector=training_collector, test_collector=test_collector, max_epochs=epochs,
        epoch_num_steps=epoch_steps, collection_step_num_env_steps=512, test_step_num_episodes=test_episodes,
        batch_size=128, update_step_num_repetitions=4, show_progress=False, verbose=False,
        compute_score_fn=lambda stats: returns.append(stats.returns_stat.mean) or stats.returns_stat.mean))
    return result, algorithm, returns


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("game", nargs="?", default="lin")
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--board-size", type=int, default=None)
    args = parser.parse_args()
    options = {} if args.board_size is None else {"board_size": args.board_size}
    result, _, returns = train(args.game, epochs=args.epochs, **options)
    print(f"{args.game}: mean return against random after each epoch (+1 a win, -1 a loss):",
          " ".join(f"{r:+.2f}" for r in returns))
