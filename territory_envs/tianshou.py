"""Tianshou 2.x: the masked actor and critic its stock PPO (and any policy-gradient algorithm) lacks.

::

    import gymnasium, territory_envs
    from tianshou.algorithm import PPO
    from tianshou.algorithm.modelfree.reinforce import ProbabilisticActorPolicy
    from tianshou.utils.net.common import Net
    from tianshou.utils.net.discrete import DiscreteActor, DiscreteCritic
    from territory_envs.tianshou import MaskedActor, PlanesCritic, masked_categorical

    env = gymnasium.make("territory_envs/Lin-v0", board_size=5, obs_dtype="float32")
    planes, actions = env.observation_space["observation"].shape, env.action_space.n
    actor = MaskedActor(DiscreteActor(preprocess_net=Net(state_shape=planes, hidden_sizes=[128]),
                                      action_shape=actions, softmax_output=False))
    critic = PlanesCritic(DiscreteCritic(preprocess_net=Net(state_shape=planes, hidden_sizes=[128])))
    policy = ProbabilisticActorPolicy(actor=actor, dist_fn=masked_categorical, action_space=env.action_space)
    ppo = PPO(policy=policy, critic=critic, optim=...)

Tianshou hands a Dict observation to the networks as a ``Batch`` with the keys of the env's
observation (``observation``: the planes, ``action_mask``), and its discrete actors and critics
expect an array. :class:`MaskedActor` gives the planes to any discrete actor and sets the logits of
illegal actions to the lowest float, so the sampled, the deterministic and the evaluated actions
are all legal and the entropy stays finite (``-inf`` logits would make it ``nan``);
:class:`PlanesCritic` gives the planes to any critic. :func:`self_play_opponent` turns the actor
into the ``opponent`` of the single-agent env, so one policy learns both seats against itself.
"""
from __future__ import annotations

import numpy as np

try:
    import torch
    from tianshou.data import Batch
    from tianshou.utils.net.common import AbstractDiscreteActor, ModuleWithVectorOutput
except ImportError as err:  # pragma: no cover - exercised where tianshou is missing
    raise ImportError("territory_envs.tianshou needs Tianshou 2.x: pip install -e \".[tianshou]\"") from err


class MaskedActor(AbstractDiscreteActor):
    """A discrete actor (``softmax_output=False``: it gives logits) fed the planes, whose illegal
    actions get the lowest logit."""

    def __init__(self, actor: AbstractDiscreteActor):
        super().__init__(actor.get_output_dim())
        self.actor = actor

    def get_preprocess_net(self) -> ModuleWithVectorOutput:
        return self.actor.get_preprocess_net()

    def forward(self, obs, state=None, info=None):
        logits, state = self.actor(obs.observation, state, info)
        legal = torch.tensor(np.asarray(obs.action_mask, dtype=bool), device=logits.device)
        return logits.masked_fill(~legal, torch.finfo(logits.dtype).min), state


class PlanesCritic(ModuleWithVectorOutput):
    """A critic fed the planes of a Dict observation."""

    def __init__(self, critic: ModuleWithVectorOutput):
        super().__init__(critic.get_output_dim())
        self.critic = critic

    def forward(self, obs, state=None, info=None):
        return self.critic(obs.observation)


def masked_categorical(logits: torch.Tensor) -> torch.distributions.Categorical:
    """The distribution of a :class:`MaskedActor`'s logits (illegal actions have probability 0)."""
    return torch.distributions.Categorical(logits=logits)


def self_play_opponent(actor: MaskedActor, greedy: bool = False, seed: int | None = None):
    """The actor as the single-agent env's ``opponent``: ``f(observation, action_mask) -> action``,
    sampled from its masked policy (``greedy``: the likeliest action). It reads the actor's current
    weights at every move, so the opponent learns as the agent does."""
    rng = np.random.default_rng(seed)

    def opponent(observation: dict, action_mask: np.ndarray) -> int:
        batch = Batch(observation=observation["observation"][None].astype(np.float32), action_mask=action_mask[None])
        with torch.no_grad():
            logits, _ = actor(batch)
        if greedy:
            return int(logits[0].argmax())
        probabilities = torch.softmax(logits[0].double(), dim=0).cpu().numpy()
        return int(rng.choice(len(probabilities), p=probabilities / probabilities.sum()))

    return opponent
