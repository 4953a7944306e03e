"""The PettingZoo AEC env that implements docs/spec.md once for all four games.

A game module subclasses :class:`TerritoryEnv`, sets ``game_class`` and ``metadata`` and writes the
docstring; everything else (agents and sides, turn order including an agent acting twice, masks,
rewards at the end, truncation, illegal actions, rendering, ``observe`` for any agent at any time)
lives here.

``env()`` and ``raw_env()`` give the same class: the guarantees that PettingZoo's usual wrapper
chain adds (``OrderEnforcingWrapper``, ``AssertOutOfBoundsWrapper``,
``TerminateIllegalWrapper``) are built in, so a step does not pay for three generic wrappers:
``step``, ``observe``, ``last``, ``state``, ``render`` and ``agent_iter`` before ``reset`` raise
``RuntimeError``; a ``step`` once every agent is done logs PettingZoo's warning and changes nothing;
an action that is not an integer (floats are refused, ``3.0`` included), out of range or masked
out ends the game with a loss for the offender, -1 to it and +1 to the other, and an
:class:`IllegalActionWarning`, as ``TerminateIllegalWrapper`` does (``illegal_action="lose"``, the
default; ``illegal_action="raise"`` raises :class:`IllegalActionError` and changes nothing).

The game state (the docs/spec.md state API) is ``env.unwrapped.game_state``; ``env.state()`` is
PettingZoo's global state, an int8 array in ``env.state_space``: the planes of the observation of
the side to move (the side that would move, once the game is over), then one plane holding the agent
that sees them (0 for ``player_0``, 1 for ``player_1``), so a centralised critic sees the board
whoever asks. ``parallel_env()`` of each game module is the same env through PettingZoo's
``turn_based_aec_to_parallel``.
"""
from __future__ import annotations

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils.conversions import turn_based_aec_to_parallel
from pettingzoo.utils.env_logger import EnvLogger

from .game import Game, GameState, IllegalActionError
from .episode import (DEFAULT_ILLEGAL_ACTION, check_illegal_action, check_seed, illegal_returns, observation_space,
                      player_info, scores_by_player, visible_mask, warn_illegal, winner_of)
from .options import check_bool, check_choice, excerpt

AGENTS = ("player_0", "player_1")
PLAYER = {"player_0": 0, "player_1": 1}


class TerritoryEnv(AECEnv):
    game_class: type[Game] = None
    metadata = {"render_modes": ["human", "ansi", "rgb_array", "svg"], "is_parallelizable": False,
                "render_fps": 2}

    def __init__(self, render_mode: str | None = None, illegal_action: str = DEFAULT_ILLEGAL_ACTION,
                 render_overlays: bool = True, **options):
        super().__init__()
        self.render_overlays = check_bool("option render_overlays", render_overlays)  # tint derived facts
        self.game: Game = self.game_class(**options)
        self.render_mode = check_choice("render_mode", render_mode, (None, *self.metadata["render_modes"]))
        self.illegal_action = check_illegal_action(illegal_action)
        self.possible_agents = list(AGENTS)
        self.observation_spaces = {a: observation_space(self.game) for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(self.game.num_actions) for a in AGENTS}
        state_shape = (*self.game.obs_shape[:2], self.game.obs_shape[2] + 1)
        self.state_space = spaces.Box(
            low=np.concatenate([self.game.obs_low, np.zeros((*state_shape[:2], 1), np.int8)], axis=2),
            high=np.concatenate([self.game.obs_high, np.ones((*state_shape[:2], 1), np.int8)], axis=2),
            dtype=np.int8)
        self.game_state: GameState | None = None
        self.np_random, _ = seeding.np_random(None)

    # --- spaces -------------------------------------------------------------------------------
    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # --- episode ------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None):
        """Start a new game. ``options={"swap_sides": True}`` gives the first side to player_1;
        ``options={"state": GameState}`` starts from a copy of that state (e.g. a search agent's)."""
        seed = check_seed("reset", seed)
        if options is not None and not isinstance(options, dict):
            raise ValueError(f"reset: options={excerpt(options)}: must be a dict or None")
        options = options or {}  # other keys are ignored, as Gymnasium envs do
        given = options.get("state")
        if given is not None:
            if not isinstance(given, GameState):
                raise ValueError(f"reset: options['state']={excerpt(given)}: must be a game state "
                                 f"(GameState) of {self.game.describe()}")
            if given.game.options != self.game.options or given.game.name != self.game.name:
                raise ValueError(f"reset: options['state'] is a state of {given.game.describe()}, "
                                 f"not of {self.game.describe()}")
        swap = check_bool("reset: options['swap_sides']", options.get("swap_sides", False))
        if given is not None and "swap_sides" in options:
            raise ValueError("reset: options['swap_sides'] with options['state']: the state holds its sides")
        if seed is not None:
            self.np_random, _ = seeding.np_random(int(seed))
            for i, agent in enumerate(AGENTS):
                self.action_spaces[agent].seed(int(seed) + i)
        self.game_state = given.clone() if given is not None else self.game.new_state(swap_sides=swap)
        self.agents = list(AGENTS)
        self._over = False  # ended by the rules, by truncation or by an illegal action
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self._end_facts = (-1, (0.0, 0.0), -1)  # winner, scores by agent, offender (see _update_infos)
        self.infos = {a: {} for a in AGENTS}
        self._update_infos()
        self.agent_selection = AGENTS[self.game_state.current_player]
        if self.game_state.terminal:  # a finished state: its rewards are the last step's, as last() says
            self._finish(self.game_state.returns(), truncated=False)
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def step(self, action):
        state = self.game_state
        if state is None:
            raise RuntimeError("step() called before reset()")
        if not self.agents:  # every agent is done: PettingZoo's order enforcement warns
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = self.agent_selection
        if self._over:
            if action is not None:
                raise IllegalActionError(f"{agent} is done: step(None) is its only action, not {excerpt(action)}")
            self._was_dead_step(action)
            return
        try:
            if action is None:
                raise IllegalActionError(f"{agent} must act: action None is only for finished agents")
            state.apply(action)
        except IllegalActionError as err:
            if self.illegal_action == "raise":
                raise
            warn_illegal(agent, err)
            self._cumulative_rewards[agent] = 0.0
            self._finish(illegal_returns(PLAYER[agent]), truncated=False, illegal=agent)
            self._accumulate_rewards()
            return
        # rewards stay zero until the step that ends the game, so the dicts are kept, not rebuilt
        self._cumulative_rewards[agent] = 0.0
        if state.flip != self._infos_flip or state.info_version != self._infos_version:  # sides or facts moved
            self._update_infos()
        if state.terminal:
            self._finish(state.returns(), truncated=False)
            self._accumulate_rewards()
        elif state.truncated:
            self._finish(np.zeros(2, dtype=np.float32), truncated=True)
            self._accumulate_rewards()
        else:
            self.agent_selection = AGENTS[state.current_player]
        if self.render_mode == "human":
            self.render()

    def _finish(self, returns, truncated: bool, illegal: str | None = None):
        self._over = True
        for i, agent in enumerate(AGENTS):
            self.rewards[agent] = float(returns[i])
            if truncated:
                self.truncations[agent] = True
            else:
                self.terminations[agent] = True
        self._end_facts = (winner_of(returns), scores_by_player(self.game_state),
                           -1 if illegal is None else PLAYER[illegal])
        self._update_infos()

    def _update_infos(self):
        """Every value a number, the same keys from ``reset`` to the end, so that libraries can
        stack infos into tensors: ``side`` (0 the first side, 1 the second), ``winner`` (the
        winning agent's index, -1 while the game goes on and for a draw or a truncation),
        ``score`` (this agent's score once the game is over, else 0.0), ``illegal_action_by``
        (the index of the agent whose illegal action ended the game, else -1), then the game's
        own facts (:meth:`GameState.info`)."""
        state = self.game_state
        self._infos_flip = state.flip
        self._infos_version = state.info_version
        extra = state.info()
        winner, scores, offender = self._end_facts
        self.infos = {agent: player_info(state, i, winner, scores[i], extra, illegal_action_by=offender)
                      for i, agent in enumerate(AGENTS)}

    # --- observations -------------------------------------------------------------------------
    def observe(self, agent):
        if self.game_state is None:
            raise RuntimeError("observe() called before reset()")
        if agent not in PLAYER:
            raise ValueError(f"observe: no agent {excerpt(agent)}; the agents are {', '.join(AGENTS)}")
        state = self.game_state
        player = PLAYER[agent]
        return {"observation": state.observation(player), "action_mask": visible_mask(state, player, self._over)}

    def last(self, observe: bool = True):
        if self.game_state is None:
            raise RuntimeError("last() called before reset()")
        return super().last(observe)

    def agent_iter(self, max_iter: int = 2**63):
        if self.game_state is None:
            raise RuntimeError("agent_iter() called before reset()")
        return super().agent_iter(max_iter)

    def state(self) -> np.ndarray:
        """PettingZoo's global state (see the module docstring), in ``state_space``."""
        game_state = self.game_state
        if game_state is None:
            raise RuntimeError("state() called before reset()")
        player = game_state.current_player
        planes = game_state.observation(player)
        out = np.empty(self.state_space.shape, dtype=np.int8)
        out[..., :-1] = planes
        out[..., -1] = player
        return out

    # --- rendering ----------------------------------------------------------------------------
    def render(self):
        if self.render_mode is None:
            import gymnasium
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi', "
                                  "'rgb_array', 'svg' or 'human' to the env")
            return None
        if self.game_state is None:
            raise RuntimeError("render() called before reset()")
        if self.render_mode == "ansi":
            return self.game_state.render_ansi()
        if self.render_mode == "rgb_array":
            return self.game_state.render_rgb(overlays=self.render_overlays)
        if self.render_mode == "svg":
            return self.game_state.render_svg(overlays=self.render_overlays)
        from .render import show_human
        show_human(self.game_state.render_ansi())
        return None

    def close(self):
        pass

    def __str__(self):
        return self.metadata.get("name", type(self).__name__)


def define_env(game_class: type[Game], name: str, doc: str, module: str):
    """The ``raw_env`` class and the ``env`` and ``parallel_env`` functions of a game's env module
    (PettingZoo's names): ``raw_env, env, parallel_env = define_env(LinGame, "lin_v0", __doc__,
    __name__)``."""
    cls = type("raw_env", (TerritoryEnv,), {
        "__doc__": doc, "__module__": module, "game_class": game_class,
        "metadata": {**TerritoryEnv.metadata, "name": name}})

    def env(**options) -> TerritoryEnv:
        return cls(**options)

    env.__doc__ = (f"The {name} env with every check on (PettingZoo's usual wrappers are built into "
                   f"``raw_env``); options as in the module docstring.")
    env.__module__ = module

    def parallel_env(**options):
        return turn_based_aec_to_parallel(cls(**options))

    parallel_env.__doc__ = (f"The {name} env as a PettingZoo ``ParallelEnv`` (``turn_based_aec_to_parallel``): "
                            f"each step takes an action from every live agent and plays the one of "
                            f"``infos[agent]['active_agent']``'s turn; options as for ``env``.")
    parallel_env.__module__ = module
    return cls, env, parallel_env
