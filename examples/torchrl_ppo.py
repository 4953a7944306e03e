"""TorchRL: PPO with TorchRL's own masked modules learns both seats of a game in self-play.

    pip install -e ".[torchrl]"
    python examples/torchrl_ppo.py asli --batches 20

The env is the single-agent one through ``GymWrapper``; its opponent is the learning policy itself
and its seat alternates, so one policy learns both sides. Everything else is TorchRL's stock parts:
the ``ActionMask`` transform, a ``ProbabilisticActor`` over ``MaskedCategorical``, ``GAE``,
``ClipPPOLoss``, a ``Collector`` and a replay buffer for the epochs of each batch. The policy is
measured against a random opponent with ``territory_envs.single.mean_return`` (its likeliest legal
action, both seats in turn).
"""
import argparse

import gymnasium
import numpy as np
import torch
from tensordict.nn import TensorDictModule
from torch import nn
from torchrl.collectors import Collector
from torchrl.data import LazyTensorStorage, ReplayBuffer, SamplerWithoutReplacement
from torchrl.envs import ActionMask, Compose, DTypeCastTransform, GymWrapper, SerialEnv, TransformedEnv
from torchrl.modules import MLP, MaskedCategorical, ProbabilisticActor, ValueOperator
from torchrl.objectives import ClipPPOLoss
from torchrl.objectives.value import GAE

from territory_envs.single import gym_ids, mean_return


def masked_logits(logits_net: nn.Module, observation: dict, action_mask) -> torch.Tensor:
    """The network's logits of one observation, -inf where the action is illegal."""
    with torch.no_grad():
        logits = logits_net(torch.as_tensor(observation["observation"], dtype=torch.float32))
    return logits.masked_fill(~torch.tensor(np.asarray(action_mask, dtype=bool)), -torch.inf)


def self_play_opponent(logits_net: nn.Module, seed: int = 0):
    """The learning network as the env's opponent ``f(observation, action_mask) -> action``: a
    sample of its masked policy, with its weights of the moment."""
    generator = torch.Generator().manual_seed(seed)

    def opponent(observation, action_mask):
        probabilities = torch.softmax(masked_logits(logits_net, observation, action_mask), -1)
        return int(torch.multinomial(probabilities, 1, generator=generator))

    return opponent


def greedy_policy(logits_net: nn.Module):
    """The network's likeliest legal action, for :func:`mean_return`."""
    return lambda observation, action_mask: int(masked_logits(logits_net, observation, action_mask).argmax())


def train(name: str, batches: int = 20, frames_per_batch: int = 1024, envs: int = 4, seed: int = 0, **options):
    """Self-play PPO on one game; returns the network that maps planes to logits."""
    torch.manual_seed(seed)

    def make_env(opponent):
        env = GymWrapper(gymnasium.make(gym_ids()[name], opponent=opponent, obs_dtype="float32", **options),
                         categorical_action_encoding=True)
        # the int8 mask as the bools TorchRL's masks are; then the action spec's mask follows it
        return TransformedEnv(env, Compose(DTypeCastTransform(torch.int8, torch.bool, in_keys=["action_mask"]),
                                           ActionMask()))

    probe = gymnasium.make(gym_ids()[name], **options)
    planes, actions = probe.observation_space["observation"].shape, int(probe.action_space.n)
    logits_net = nn.Sequential(nn.Flatten(-3), MLP(in_features=int(np.prod(planes)), out_features=actions,
                                                   num_cells=[128, 128]))
    value_net = nn.Sequential(nn.Flatten(-3), MLP(in_features=int(np.prod(planes)), out_features=1, num_cells=[128, 128]))
    env = SerialEnv(envs, [lambda i=i: make_env(self_play_opponent(logits_net, seed + i)) for i in range(envs)])
    env.set_seed(seed)
    actor = ProbabilisticActor(TensorDictModule(logits_net, in_keys=["observation"], out_keys=["logits"]),
                               in_keys={"logits": "logits", "mask": "action_mask"}, distribution_class=MaskedCategorical,
                               spec=env.action_spec, return_log_prob=True)
    critic = ValueOperator(value_net, in_keys=["observation"])
    advantage = GAE(gamma=0.99, lmbda=0.95, value_network=critic, average_gae=True)
    loss = ClipPPOLoss(actor, critic, clip_epsilon=0.2, entropy_coeff=0.01, critic_coeff=0.5)
    optimizer = torch.optim.Adam(loss.parameters(), lr=3e-4)
    buffer = ReplayBuffer(storage=LazyTensorStorage(frames_per_batch), sampler=SamplerWithoutReplacement())
    collector = Collector(env, actor, frames_per_batch=frames_per_batch, total_frames=batches * frames_per_batch,
                          auto_register_policy_transforms=True)
    for batch in collector:
        for _ in range(4):  # epochs over each batch
            with torch.no_grad():
                advantage(batch)
            buffer.extend(batch.reshape(-1))
            for _ in range(frames_per_batch // 128):
                losses = loss(buffer.sample(128))
                total = losses["loss_objective"] + losses["loss_critic"] + losses["loss_entropy"]
                optimizer.zero_grad()
                total.backward()
                nn.utils.clip_grad_norm_(loss.parameters(), 0.5)
                optimizer.step()
        collector.update_policy_weights_()
    collector.shutdown()
    return logits_net


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("game", nargs="?", default="lin")
    parser.add_argument("--batches", type=int, default=20)
    parser.add_argument("--board-size", type=int, default=None)
    parser.add_argument("--episodes", type=int, default=200)
    args = parser.parse_args()
    torch.set_num_threads(1)
    options = {} if args.board_size is None else {"board_size": args.board_size}
    logits_net = train(args.game, batches=args.batches, **options)
    print(f"{args.game}: mean return against random (+1 a win, -1 a loss): "
          f"{mean_return(greedy_policy(logits_net), args.game, args.episodes, **options):+.2f}")
