"""Tianshou 2.x: a masked DQN learns one side of a game against a masked random opponent.

    pip install -e ".[tianshou]"
    python examples/tianshou_dqn.py lin --epochs 5

Tianshou's ``PettingZooEnv`` takes the AEC env as it is: its ``action_mask`` becomes the mask the
DQN policy applies, and the numeric infos stack into its buffer.
"""
import argparse

import numpy as np
import torch
from tianshou.algorithm import DQN, MARLRandomDiscreteMaskedOffPolicyAlgorithm, MultiAgentOffPolicyAlgorithm
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, CollectStats, VectorReplayBuffer
from tianshou.env import DummyVectorEnv
from tianshou.env.pettingzoo_env import PettingZooEnv
from tianshou.trainer import OffPolicyTrainerParams
from tianshou.utils.net.common import Net

import territory_envs


def train(name: str, epochs: int = 1, epoch_steps: int = 500, seed: int = 0, envs: int = 4, **options):
    """Train player_0's DQN against a random player_1; returns (training result, the algorithm)."""
    def make():
        return PettingZooEnv(territory_envs.make(name, **options))

    probe = make()
    obs_space = probe.observation_space["observation"]
    net = Net(state_shape=obs_space.shape, action_shape=probe.action_space.n, hidden_sizes=[128, 128])
    learner = DQN(policy=DiscreteQLearningPolicy(model=net, action_space=probe.action_space,
                                                 eps_training=0.1, eps_inference=0.0),
                  optim=AdamOptimizerFactory(lr=1e-3), gamma=0.95, n_step_return_horizon=3,
                  target_update_freq=100)
    opponent = MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=probe.action_space)
    algorithm = MultiAgentOffPolicyAlgorithm(algorithms=[learner, opponent], env=probe)
    train_envs, test_envs = DummyVectorEnv([make] * envs), DummyVectorEnv([make] * envs)
    np.random.seed(seed)
    torch.manual_seed(seed)
    train_envs.seed(seed)
    test_envs.seed(seed + 1)
    train_collector = Collector[CollectStats](algorithm, train_envs, VectorReplayBuffer(10_000, envs),
                                              exploration_noise=True)
    test_collector = Collector[CollectStats](algorithm, test_envs, exploration_noise=True)
    train_collector.reset()
    train_collector.collect(n_step=64 * envs)
    result = algorithm.run_training(OffPolicyTrainerParams(
        training_collector=train_collector, test_collector=test_collector, max_epochs=epochs,
        epoch_num_steps=epoch_steps, collection_step_num_env_steps=10, test_step_num_episodes=envs,
        batch_size=64, update_step_num_gradient_steps_per_sample=0.1, test_in_training=False,
        show_progress=False, verbose=False,
        multi_agent_return_reduction=lambda rewards: rewards[:, 0]))
    return result, learner


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("game", nargs="?", default="lin")
    parser.add_argument("--epochs", type=int, default=5)
    args = parser.parse_args()
    result, _ = train(args.game, epochs=args.epochs)
    print(result)
