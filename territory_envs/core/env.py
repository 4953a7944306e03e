"""The PettingZoo AEC env that implements SPEC.md once for all four games.

A game module subclasses :class:`TerritoryEnv`, sets ``game_class`` and ``metadata`` and writes the
docstring; everything else (agents and sides, turn order including an agent acting twice, masks,
rewards at the end, truncation, illegal actions, rendering, ``observe`` for any agent at any time)
lives here.

``env()`` and ``raw_env()`` give the same class: the guarantees that PettingZoo's usual wrapper
chain adds (``OrderEnforcingWrapper``, ``AssertOutOfBoundsWrapper``,
``TerminateIllegalWrapper``) are built in, so a step does not pay for three generic wrappers:
stepping or observing before ``reset`` raises, an out-of-range or masked-out action raises
:class:`IllegalActionError` and changes nothing (or, with ``illegal_action="lose"``, ends the game
with a loss for the offender, -1 to it and +1 to the other, as ``TerminateIllegalWrapper`` does).
"""
from __future__ import annotations

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from .game import Game, GameState, IllegalActionError
from .options import check_choice

AGENTS = ("player_0", "player_1")
PLAYER = {"player_0": 0, "player_1": 1}


class TerritoryEnv(AECEnv):
    game_class: type[Game] = None
    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "is_parallelizable": False,
                "render_fps": 2}

    def __init__(self, render_mode: str | None = None, illegal_action: str = "raise",
                 render_overlays: bool = True, **options):
        super().__init__()
        if not isinstance(render_overlays, bool):
            raise ValueError(f"option render_overlays={render_overlays!r}: must be True or False")
        self.render_overlays = render_overlays  # tint the game's derived facts in rgb pictures
        self.game: Game = self.game_class(**options)
        self.render_mode = check_choice("render_mode", render_mode, (None, *self.metadata["render_modes"]))
        self.illegal_action = check_choice("illegal_action", illegal_action, ("raise", "lose"))
        self.possible_agents = list(AGENTS)
        obs_space = spaces.Dict({
            "observation": spaces.Box(low=self.game.obs_low, high=self.game.obs_high, dtype=np.int8),
            "action_mask": spaces.Box(low=0, high=1, shape=(self.game.num_actions,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs_space for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(self.game.num_actions) for a in AGENTS}
        self.state: GameState | None = None
        self._zero_mask = np.zeros(self.game.num_actions, dtype=np.int8)
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
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
            for i, agent in enumerate(AGENTS):
                self.action_spaces[agent].seed(seed + i)
        options = options or {}  # other keys are ignored, as Gymnasium envs do
        if options.get("state") is not None:
            given = options["state"]
            if given.game.options != self.game.options or given.game.name != self.game.name:
                raise ValueError("reset: the given state belongs to another game or option set")
            self.state = given.clone()
        else:
            self.state = self.game.new_state(swap_sides=bool(options.get("swap_sides", False)))
        self.agents = list(AGENTS)
        self._over = False  # ended by the rules, by truncation or by an illegal action
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos = {a: {} for a in AGENTS}
        self._update_infos()
        self.agent_selection = AGENTS[self.state.current_player]
        if self.state.terminal:
            self._finish(self.state.returns(), truncated=False)
        if self.render_mode == "human":
            self.render()

    def step(self, action):
        state = self.state
        if state is None:
            raise RuntimeError("step() called before reset()")
        agent = self.agent_selection
        if self._over:
            self._was_dead_step(action)
            return
        try:
            if action is None:
                raise IllegalActionError(f"{agent} must act: action None is only for finished agents")
            state.apply(action)
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            player = PLAYER[agent]
            returns = np.zeros(2, dtype=np.float32)
            returns[player], returns[1 - player] = -1.0, 1.0
            self._cumulative_rewards[agent] = 0.0
            self._finish(returns, truncated=False, illegal=agent)
            self._accumulate_rewards()
            return
        # rewards stay zero until the step that ends the game, so the dicts are kept, not rebuilt
        self._cumulative_rewards[agent] = 0.0
        if state.flip != self._infos_flip or state.info_version != self._infos_version:  # sides or facts moved
            self._update_infos()
        if state.terminal:
            self._finish(state.returns(), truncated=False)
            self._accumulate_rewards()
        elif state.move_number >= self.game.max_moves:
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
        winner = None
        if returns[0] != returns[1]:
            winner = AGENTS[int(np.argmax(returns))]
        scores = self.state.scores()
        for agent in AGENTS:
            info = self.infos[agent]
            info["winner"] = winner
            if scores is not None:
                info["score"] = scores[self.state.side_of(AGENTS.index(agent))]
            if truncated:
                info["truncated_by"] = "max_moves"
            if illegal is not None:
                info["illegal_action_by"] = illegal

    def _update_infos(self):
        state = self.state
        sides = state.game.sides
        self._infos_flip = state.flip
        self._infos_version = state.info_version
        extra = state.info()
        self.infos = {"player_0": {"side": sides[state.flip], **extra},
                      "player_1": {"side": sides[1 ^ state.flip], **extra}}

    # --- observations -------------------------------------------------------------------------
    def observe(self, agent):
        if self.state is None:
            raise RuntimeError("observe() called before reset()")
        state = self.state
        on_move = not self._over and state.current_player == PLAYER[agent]
        return {"observation": state.observation(PLAYER[agent]),
                "action_mask": state.mask.copy() if on_move else self._zero_mask.copy()}

    # --- rendering ----------------------------------------------------------------------------
    def render(self):
        if self.render_mode is None:
            import gymnasium
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi', "
                                  "'rgb_array' or 'human' to the env")
            return None
        if self.state is None:
            raise RuntimeError("render() called before reset()")
        if self.render_mode == "ansi":
            return self.state.render_ansi()
        if self.render_mode == "rgb_array":
            return self.state.render_rgb(overlays=self.render_overlays)
        from .render import show_human
        show_human(self.state.render_ansi())
        return None

    def close(self):
        pass

    def __str__(self):
        return self.metadata.get("name", type(self).__name__)


def define_env(game_class: type[Game], name: str, doc: str, module: str):
    """The ``raw_env`` class and ``env`` function of a game's env module (PettingZoo's names):
    ``raw_env, env = define_env(LinGame, "lin_v0", __doc__, __name__)``."""
    cls = type("raw_env", (TerritoryEnv,), {
        "__doc__": doc, "__module__": module, "game_class": game_class,
        "metadata": {**TerritoryEnv.metadata, "name": name}})

    def env(**options) -> TerritoryEnv:
        return cls(**options)

    env.__doc__ = (f"The {name} env with every check on (PettingZoo's usual wrappers are built into "
                   f"``raw_env``); options as in the module docstring.")
    env.__module__ = module
    return cls, env
