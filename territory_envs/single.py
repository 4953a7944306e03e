"""Each game as a single-agent ``gymnasium.Env``: the agent plays one side, an opponent inside the
env plays the other.

::

    import gymnasium, territory_envs
    env = gymnasium.make("territory_envs/Lin-v0", board_size=5, line_length=3, opponent="greedy")
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(obs["action_mask"])[0]))

The ids ``territory_envs/Lin-v0``, ``Linage-v0``, ``Lifeline-v0`` and ``Asli-v0`` are registered
when ``territory_envs`` is imported; every keyword of ``gymnasium.make`` is an option of the game or
of this env:

* ``opponent``: ``"random"`` (default), any :func:`agents.make_agent` spec (``"greedy"``,
  ``"mcts:64"``, ``"az:runs/lin"``), an agent object with ``act(state)``, or a policy callable
  ``f(observation, action_mask) -> action`` that sees the opponent's own observation;
* ``seat``: ``"alternate"`` (default: the agent takes the first side in the first episode after a
  seeded reset, then the second, and so on), ``"random"`` (drawn from the reset's seed), ``0`` (always first) or ``1``;
* ``obs_dtype``: ``"int8"`` (default, the planes as the AEC env gives them) or ``"float32"`` for
  libraries that need floats;
* ``illegal_action``: ``"lose"`` (default: the episode ends with reward -1 and an
  ``IllegalActionWarning``, as PettingZoo's classic envs do) or ``"raise"`` (an
  ``IllegalActionError``, nothing changes: for debugging);
* ``render_mode``: ``"ansi"``, ``"rgb_array"``, ``"svg"`` (an SVG document, a ``str``) or ``"human"``.

The opponent's moves are made inside ``step``, after the agent's, until the agent is to move again
or the game is over, so the agent's final reward (a loss included) belongs to its own transition.
Rewards: +1 win, -1 loss, 0 draw, truncation and every other step. ``action_masks()`` is the mask
that sb3-contrib's ``MaskablePPO`` asks for. ``info``: numbers only, the same keys from reset to
the end: ``side`` (the agent's side, 0 first), ``winner`` (-1 none or a draw, 0 the agent, 1 the
opponent), ``score`` (the agent's score at the end, else 0.0), ``opponent_moves`` (moves the
opponent made in this step), then the game's own facts.

``gymnasium.make_vec(id, num_envs=1024, ...)`` gives the batched form of the same env, stepped in
compiled code (``territory_envs.single_vector``).
"""
from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces

from .core.episode import (DEFAULT_ILLEGAL_ACTION, check_illegal_action, check_seat, observation_space, outcome,
                           player_info, visible_mask, warn_illegal)
from .core.game import IllegalActionError, as_action
from .core.options import check_choice, excerpt
from .core.declaration import declared, declared_names
from .registry import make_game


def gym_ids() -> dict:
    """Every registered game's Gymnasium id: ``{"lin": "territory_envs/Lin-v0", ...}``."""
    return {name: declared(name).gym_id for name in declared_names()}


class _PolicyOpponent:
    """A policy callable as an opponent: it sees its own observation and mask."""

    def __init__(self, policy):
        self.policy = policy
        self.name = getattr(policy, "__name__", "policy")

    def act(self, state):
        mask = state.legal_mask()
        return self.policy({"observation": state.observation(state.current_player), "action_mask": mask}, mask)


class _RandomOpponent:
    """The default opponent: uniform among the legal actions, seeded by ``reset``."""

    name = "random"

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def act(self, state) -> int:
        legal = state.legal_actions()
        return int(legal[self.rng.integers(len(legal))])


AGENT_PLUGINS = "territory_envs.agents"  # the entry-point group that resolves agent spec strings


def agent_from_spec(spec: str, seed: int | None = None):
    """The agent of a spec string (``"greedy"``, ``"mcts:64"``, ``"az"``), made by the package that
    serves the entry point ``territory_envs.agents`` (``agents.make_agent``, installed beside this
    package): the envs name no agent package."""
    from importlib.metadata import entry_points
    for point in entry_points(group=AGENT_PLUGINS, name="make_agent"):
        return point.load()(spec, seed=seed)
    raise ValueError(f"opponent {spec!r}: no package serves agent specs here (the agents package, installed "
                     f"with territory_envs, does); pass an agent object with act(state) or a policy callable")


def make_opponent(opponent, seed: int | None = None):
    """An object with ``act(state)`` from a spec string, an agent or a policy callable."""
    if isinstance(opponent, str):
        if opponent.strip() == "random":
            return _RandomOpponent(seed)
        return agent_from_spec(opponent, seed)
    if callable(getattr(opponent, "act", None)):
        return opponent
    if callable(opponent):
        return _PolicyOpponent(opponent)
    raise ValueError(f"opponent={excerpt(opponent)}: expected an agent spec (\"random\", \"greedy\", "
                     f"\"mcts:64\", ...), an object with act(state) or a callable (observation, mask) -> action")


class SingleAgentEnv(gymnasium.Env):
    metadata = {"render_modes": ["human", "ansi", "rgb_array", "svg"], "render_fps": 2}

    def __init__(self, game: str, opponent="random", seat="alternate", obs_dtype: str = "int8",
                 illegal_action: str = DEFAULT_ILLEGAL_ACTION, render_mode: str | None = None, **options):
        self.game = make_game(game, **options)
        self.opponent_spec = opponent
        self.opponent = make_opponent(opponent)
        self.seat = check_seat(seat)
        self.obs_dtype = check_choice("obs_dtype", obs_dtype, ("int8", "float32"))
        self.illegal_action = check_illegal_action(illegal_action)
        self.render_mode = check_choice("render_mode", render_mode, (None, *self.metadata["render_modes"]))
        g = self.game
        self.observation_space = observation_space(g, np.float32 if self.obs_dtype == "float32" else np.int8)
        self.action_space = spaces.Discrete(g.num_actions)
        self.state = None
        self.player = 0  # the agent's player index in the state
        self.episodes = 0

    # --- gymnasium ---------------------------------------------------------------------------
    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        if options is not None and not isinstance(options, dict):
            raise ValueError(f"reset: options={excerpt(options)}: must be a dict or None")
        if seed is not None:
            self.episodes = 0  # a seed restarts everything, the alternation of seats included
        if self.seat == "alternate":
            self.player = self.episodes % 2
        elif self.seat == "random":
            self.player = int(self.np_random.integers(2))
        else:
            self.player = self.seat
        self.episodes += 1
        if hasattr(self.opponent, "reset"):
            self.opponent.reset(int(self.np_random.integers(2**31)))
        self.state = self.game.new_state()
        moves = self._opponent_moves()
        return self._observation(), self._info(moves)

    def step(self, action):
        if self.state is None:
            raise RuntimeError("step() called before reset()")
        state = self.state
        if self._over():
            raise RuntimeError("step() called after the episode ended; call reset()")
        try:
            a = as_action(action, self.game.num_actions)
            if not state.mask[a]:
                raise IllegalActionError(f"action {self.game.action_to_notation(a)} ({a}) is not legal here")
        except IllegalActionError as err:
            if self.illegal_action == "raise":
                raise
            warn_illegal("the agent", err)
            self._lost_by_illegal = True
            return self._observation(), -1.0, True, False, self._info(0, winner=1)
        state.apply(a)
        moves = self._opponent_moves()
        terminated, truncated = outcome(state)
        reward = float(state.returns()[self.player]) if terminated else 0.0
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, truncated, self._info(moves)

    def action_masks(self) -> np.ndarray:
        """The legal actions of the agent (sb3-contrib's ``MaskablePPO`` calls this)."""
        return self._observation()["action_mask"].astype(bool)

    def render(self):
        if self.render_mode is None or self.state is None:
            return None
        if self.render_mode == "rgb_array":
            return self.state.render_rgb()
        if self.render_mode == "svg":
            return self.state.render_svg()
        text = self.state.render_ansi()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # --- inside ----------------------------------------------------------------------------------
    def _over(self) -> bool:
        return self.state.over or getattr(self, "_lost_by_illegal", False)

    def _opponent_moves(self) -> int:
        """Let the opponent move until the agent is to move or the game is over."""
        self._lost_by_illegal = False
        state, moves = self.state, 0
        while not self._over() and state.current_player != self.player:
            action = self.opponent.act(state.clone())
            try:
                state.apply(action)
            except IllegalActionError as err:
                raise IllegalActionError(f"the opponent {excerpt(getattr(self.opponent, 'name', self.opponent))} "
                                         f"returned an illegal action: {err}") from None
            moves += 1
        return moves

    def _observation(self) -> dict:
        state = self.state
        planes = state.observation(self.player)
        if self.obs_dtype == "float32":
            planes = planes.astype(np.float32)
        return {"observation": planes, "action_mask": visible_mask(state, self.player, self._over())}

    def _info(self, opponent_moves: int, winner: int | None = None) -> dict:
        state = self.state
        if winner is None:
            winner = -1
            if state.terminal and state.winner >= 0:
                winner = 0 if (state.winner ^ state.flip) == self.player else 1
        scores = state.scores()
        over = self._over() or winner >= 0
        score = float(scores[state.side_of(self.player)]) if over and scores is not None else 0.0
        return player_info(state, self.player, winner, score, state.info(), opponent_moves=opponent_moves)


def mean_return(policy, game: str, episodes: int = 100, opponent="random", seed: int = 0, **options) -> float:
    """The mean return of ``policy(observation, action_mask) -> action`` (the callable an opponent
    can be) over ``episodes`` of the single-agent env against ``opponent``, the seats alternating
    from the first: +1 a win, -1 a loss, 0 a draw or a truncated game. Every example in
    ``examples/`` reports its policy with this."""
    if not isinstance(episodes, (int, np.integer)) or isinstance(episodes, bool) or episodes < 1:
        raise ValueError(f"episodes={excerpt(episodes)}: must be a whole number >= 1")
    env = SingleAgentEnv(game, opponent=opponent, **options)
    total = 0.0
    for episode in range(episodes):
        obs, _ = env.reset(seed=seed if episode == 0 else None)
        while True:
            obs, reward, terminated, truncated, _ = env.step(policy(obs, obs["action_mask"]))
            if terminated or truncated:
                total += reward
                break
    return total / episodes


def register_envs() -> None:
    """Register every registered game's id with gymnasium (once; ``register_game`` calls it for a
    game registered later)."""
    for name, env_id in gym_ids().items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="territory_envs.single:SingleAgentEnv",
                               vector_entry_point="territory_envs.single_vector:SingleAgentVectorEnv",
                               kwargs={"game": name})
