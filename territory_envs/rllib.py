"""RLlib (Ray 2.x, new API stack): multi-agent PPO with action masking on any game in a few lines.

::

    import ray
    from territory_envs.rllib import ppo_config
    ray.init()
    algo = ppo_config("lin", board_size=5, line_length=3).build_algo()
    print(algo.train()["env_runners"]["episode_return_mean"])

RLlib needs three things the AEC env does not give as such, and this module adds them:

* :class:`RLlibTurnEnv`: the game as an RLlib ``MultiAgentEnv`` in turns. Only the agent to move
  gets an observation, a dict ``{"observations": float32 planes (H, W, C), "action_mask": float32
  (A,)}`` (the names and dtype of RLlib's action-masking examples); at the end both agents get
  their reward and last observation.
* :class:`MaskedConvModule`: a small convolutional ``TorchRLModule`` (RLlib has no default encoder
  for a Dict observation, nor conv filters for boards of 5 to 25 points) with one logit per cell,
  logits of the special actions from pooled features, illegal actions masked, and a value head.
* :func:`ppo_config`: a ``PPOConfig`` in which both agents share one module (self-play).

Ray is imported only by this module, and only when it is used.
"""
from __future__ import annotations

import numpy as np

from .registry import make

try:  # RLlib's base class when Ray is installed; the module still imports without it
    from ray.rllib.env.multi_agent_env import MultiAgentEnv as _MultiAgentEnv
except ImportError:  # pragma: no cover - exercised where ray is missing
    _MultiAgentEnv = object


class RLlibTurnEnv(_MultiAgentEnv):
    def __init__(self, config: dict | None = None):
        from gymnasium import spaces
        super().__init__()
        config = dict(config or {})
        if "game" not in config:
            raise ValueError("RLlibTurnEnv: env_config must name the game, e.g. {'game': 'lin'} (ppo_config does)")
        self.game_name = config.pop("game")
        self.env = make(self.game_name, **config)
        game = self.env.game
        self.possible_agents = list(self.env.possible_agents)
        self.agents = list(self.possible_agents)
        single = spaces.Dict({
            "observations": spaces.Box(game.obs_low.astype(np.float32), game.obs_high.astype(np.float32),
                                       dtype=np.float32),
            "action_mask": spaces.Box(0.0, 1.0, (game.num_actions,), dtype=np.float32),
        })
        self.observation_spaces = {a: single for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(game.num_actions) for a in self.possible_agents}

    def _observe(self, agent) -> dict:
        obs = self.env.observe(agent)
        return {"observations": obs["observation"].astype(np.float32),
                "action_mask": obs["action_mask"].astype(np.float32)}

    def reset(self, *, seed=None, options=None):
        self.env.reset(seed=seed, options=options)
        self.agents = list(self.possible_agents)
        mover = self.env.agent_selection
        return {mover: self._observe(mover)}, {mover: {}}

    def step(self, action_dict: dict):
        mover = self.env.agent_selection
        self.env.step(int(action_dict[mover]))
        over = all(self.env.terminations.values()) or all(self.env.truncations.values())
        if over:
            agents = list(self.possible_agents)
            obs = {a: self._observe(a) for a in agents}
            rewards = {a: float(self.env.rewards[a]) for a in agents}
            terminated = all(self.env.terminations.values())
            dones = {a: terminated for a in agents} | {"__all__": terminated}
            truncs = {a: not terminated for a in agents} | {"__all__": not terminated}
            return obs, rewards, dones, truncs, {a: {} for a in agents}
        nxt = self.env.agent_selection
        return ({nxt: self._observe(nxt)}, {nxt: 0.0}, {"__all__": False}, {"__all__": False}, {nxt: {}})


def _module_class():
    """The module class, built on first use so that importing this file needs no Ray."""
    global MaskedConvModule
    if MaskedConvModule is not None:
        return MaskedConvModule
    import torch
    from ray.rllib.core.columns import Columns
    from ray.rllib.core.rl_module.apis import ValueFunctionAPI
    from ray.rllib.core.rl_module.torch import TorchRLModule
    from torch import nn

    class _MaskedConvModule(TorchRLModule, ValueFunctionAPI):
        """Conv tower over the planes; ``model_config``: ``channels`` (32), ``layers`` (3)."""

        def setup(self):
            h, w, c = self.observation_space["observations"].shape
            self.num_cells = h * w
            channels = self.model_config.get("channels", 32)
            layers, depth = [], c
            for _ in range(self.model_config.get("layers", 3)):
                layers += [nn.Conv2d(depth, channels, 3, padding=1), nn.ReLU()]
                depth = channels
            self.tower = nn.Sequential(*layers)
            self.cell_logits = nn.Conv2d(channels, 1, 1)
            self.special = self.action_space.n - self.num_cells
            self.special_logits = nn.Linear(channels, self.special) if self.special else None
            self.value = nn.Sequential(nn.Linear(channels, 64), nn.ReLU(), nn.Linear(64, 1))

        def _features(self, batch):
            planes = batch[Columns.OBS]["observations"].permute(0, 3, 1, 2)
            x = self.tower(planes)
            return x, x.mean((2, 3))

        def _logits(self, batch):
            x, pooled = self._features(batch)
            logits = self.cell_logits(x).flatten(1)
            if self.special_logits is not None:
                logits = torch.cat([logits, self.special_logits(pooled)], 1)
            mask = batch[Columns.OBS]["action_mask"]
            return logits.masked_fill(mask == 0, -1e9), pooled

        def _forward(self, batch, **kwargs):
            logits, _ = self._logits(batch)
            return {Columns.ACTION_DIST_INPUTS: logits}

        def _forward_train(self, batch, **kwargs):
            logits, pooled = self._logits(batch)
            return {Columns.ACTION_DIST_INPUTS: logits, Columns.EMBEDDINGS: pooled}

        def compute_values(self, batch, embeddings=None):
            if embeddings is None:
                _, embeddings = self._features(batch)
            return self.value(embeddings).squeeze(-1)

    MaskedConvModule = _MaskedConvModule
    return MaskedConvModule


MaskedConvModule = None  # the class, once _module_class() has built it


def ppo_config(game: str, num_env_runners: int = 2, model_config: dict | None = None, **options):
    """A ``PPOConfig`` for ``game`` (its options as keywords): both agents share one masked conv
    module, ``num_env_runners`` env runners. Change anything further with PPOConfig's methods."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.tune.registry import register_env

    name = f"territory_envs_{game}"
    register_env(name, lambda config: RLlibTurnEnv(config))
    spec = RLModuleSpec(module_class=_module_class(), model_config=dict(model_config or {}))
    return (PPOConfig()
            # RLlib's env check steps unmasked random actions: each would end its game with a loss
            .environment(name, env_config={"game": game, **options}, disable_env_checking=True)
            .env_runners(num_env_runners=num_env_runners)
            .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent_id, episode, **kw: "shared")
            .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={"shared": spec}))
            .training(train_batch_size_per_learner=512, minibatch_size=128, num_epochs=2, lr=3e-4))
