"""The single-agent form of every game as a ``gymnasium.vector.VectorEnv``: ``num_envs`` games
stepped together by the compiled batch kernels (``territory_envs.vector``), the agent on one seat of
each, an opponent inside on the other.

::

    import gymnasium, territory_envs
    envs = gymnasium.make_vec("territory_envs/Lin-v0", num_envs=1024, board_size=5, line_length=3)
    obs, info = envs.reset(seed=0)
    actions = ...  # (1024,) legal actions, from obs["action_mask"]
    obs, rewards, terminated, truncated, info = envs.step(actions)

``gymnasium.make_vec`` builds this class for the four ids of ``territory_envs.single`` (its
``vector_entry_point``); ``vectorization_mode="sync"`` gives gymnasium's own loop over
:class:`~territory_envs.single.SingleAgentEnv` instead. The keywords are the game's options and:

* ``opponent``: ``"random"`` (default: drawn in compiled code, one random stream per game seeded by
  ``reset(seed)``); ``"greedy"`` (the one-ply lookahead of ``agents.greedy``, batched:
  :mod:`territory_envs.lookahead`, ties broken from the reset's seed); a batched policy callable
  ``f(observation, action_mask) -> actions`` that gets ``{"observation": (k, H, W, C),
  "action_mask": (k, A)}`` and the masks of the ``k`` games where the opponent moves (its own
  view) and returns ``k`` actions, e.g. a network; or any
  :func:`agents.make_agent` spec or agent object, asked game by game through the state API (fine
  for a search agent, whose search costs far more than that);
* ``seat``: ``"alternate"`` (default: in slot ``e`` the agent takes the first side in the first
  episode after a seeded reset if ``e`` is even, the second if odd, then changes seat every
  episode), ``"random"`` (drawn per episode from the reset's seed), ``0`` or ``1``;
* ``obs_dtype``: ``"int8"`` (default) or ``"float32"``; ``num_threads``: the kernels' threads (``None``, the
  default, tunes them by timing: :mod:`territory_envs.vector`).

Every game starts each step with the agent to move. ``step`` plays the agent's actions, then the
opponent's moves in the games where it is the opponent's turn, in compiled batch steps over those
games only, until the agent is to move in every game. Rewards, of the agent: +1 win, -1 loss, 0
draw, truncation and every other step. A game that ends is reset in the same step
(``metadata["autoreset_mode"]`` is ``AutoresetMode.SAME_STEP``): ``obs`` is the first observation
of its next episode (after the opponent's opening moves where the agent has the second seat),
``info["final_obs"][e]`` the agent's own last observation (mask empty) and ``info["final_info"]``
that episode's info, with ``info["_final_obs"]`` / ``info["_final_info"]`` saying which games
ended, as gymnasium's vector envs do.

``info``: arrays of shape ``(B,)``, the same keys at every call, each with its ``_key`` mask (all
set): ``side`` (the agent's side, 0 first), ``winner`` (-1 none or a draw, 0 the agent, 1 the
opponent: always -1 for games in progress, so read it in ``final_info``), ``score`` (the agent's
score at the end, komi included, else 0.0; 0.0 in games without points) and ``opponent_moves``
(moves the opponent made in the step, in the episode the info is of). The game's own facts (Asli's prison) are in the
observation planes here, not in ``info``.

An illegal action raises ``IllegalActionError`` naming the games and changes nothing.
"""
from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from .core.game import IllegalActionError
from .core.options import check_choice, excerpt
from .core.episode import check_seat, check_seed, observation_space
from .lookahead import BatchGreedy
from .single import make_opponent
from .vector import VectorEnv, batch_actions

_INFO_KEYS = ("side", "winner", "score", "opponent_moves")


class SingleAgentVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` single-agent games (see the module docstring)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, game: str, num_envs: int = 64, opponent="random", seat="alternate", obs_dtype: str = "int8",
                 num_threads: int | None = None, **options):
        seat = check_seat(seat)
        self.obs_dtype = check_choice("obs_dtype", obs_dtype, ("int8", "float32"))
        self.batch = VectorEnv(game, num_envs, num_threads=num_threads, **options)
        self.game = self.batch.game
        self.num_envs = self.batch.num_envs
        self.seat = seat
        self.opponent_spec = opponent
        self._random_opponent = isinstance(opponent, str) and opponent == "random"
        self._batched_policy = None
        self._greedy = None
        self.opponent = None
        if isinstance(opponent, str) and opponent == "greedy":
            # no more scratch games than the batch can ask for at once
            pairs = min(8192, self.num_envs * self.game.num_actions)
            self._greedy = BatchGreedy(game, self.game.options, max_pairs=pairs)
        elif not self._random_opponent:
            if isinstance(opponent, str) or callable(getattr(opponent, "act", None)):
                self.opponent = make_opponent(opponent)
            elif callable(opponent):
                self._batched_policy = opponent
            else:
                make_opponent(opponent)  # raises the ValueError that names what an opponent can be
        g, b = self.game, self.num_envs
        self.single_observation_space = observation_space(g, np.float32 if self.obs_dtype == "float32" else np.int8)
        self.single_action_space = spaces.Discrete(g.num_actions)
        self.observation_space = batch_space(self.single_observation_space, b)
        self.action_space = batch_space(self.single_action_space, b)
        self.player = np.zeros(b, dtype=np.int64)  # the agent's player index in every game
        self.episodes = np.zeros(b, dtype=np.int64)  # episodes begun in every slot since the seeded reset
        self._rng = np.random.default_rng()
        self._ready = False
        self._all = np.ones(b, dtype=np.bool_)

    # --- gymnasium ---------------------------------------------------------------------------
    def reset(self, *, seed=None, options=None):
        if options is not None and not isinstance(options, dict):
            raise ValueError(f"reset: options={excerpt(options)}: must be a dict or None")
        seed = check_seed("reset", seed)
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            self.episodes[:] = 0
        self.batch.reset(seed=None if seed is None else int(self._rng.integers(2**63)))
        if self.opponent is not None and hasattr(self.opponent, "reset"):
            self.opponent.reset(int(self._rng.integers(2**31)))
        self._new_seats(self._all)
        self._ready = True
        b = self.num_envs
        moves = np.zeros(b, dtype=np.int64)
        unused = [np.zeros(b, dtype=np.bool_) for _ in range(3)]  # ends, terminated, truncated: none at a reset
        self._opponent_moves(moves, unused[0], np.zeros(b, dtype=np.float32), {}, {}, unused[1], unused[2])
        return self._observation(), self._info(moves)

    def step(self, actions):
        if not self._ready:
            raise RuntimeError("step() called before reset()")
        actions = batch_actions(actions, self.num_envs)
        b = self.num_envs
        rewards = np.zeros(b, dtype=np.float32)
        ended = np.zeros(b, dtype=np.bool_)
        terminated = np.zeros(b, dtype=np.bool_)
        truncated = np.zeros(b, dtype=np.bool_)
        final, final_info = {}, {}
        moves = np.zeros(b, dtype=np.int64)
        # every game has the agent to move here, so the batch's own check is the agent's
        self._substep(actions, self._all, moves, ended, rewards, final, final_info,
                      terminated, truncated, by_opponent=False)
        self._opponent_moves(moves, ended, rewards, final, final_info, terminated, truncated)
        info = self._info(moves)
        if final:
            info.update(final)
            info["final_info"] = final_info
            info["_final_info"] = final["_final_obs"]
        return self._observation(), rewards, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """bool ``(B, A)``: the agent's legal actions in every game."""
        return self.batch.action_masks.astype(bool)

    # --- inside ----------------------------------------------------------------------------------
    def _new_seats(self, slots):
        """Seat the agent for the episode that begins in each slot of ``slots``."""
        if self.seat == "alternate":
            self.player[slots] = (np.flatnonzero(slots) + self.episodes[slots]) % 2
        elif self.seat == "random":
            self.player[slots] = self._rng.integers(2, size=int(slots.sum()))
        else:
            self.player[slots] = self.seat
        self.episodes[slots] += 1

    def _opponent_moves(self, moves, ended, rewards, final, final_info, terminated, truncated):
        """The opponent moves in every game where it is to move, until none is left."""
        while True:
            need = self.batch.agents_to_move != self.player
            if not need.any():
                return
            actions = self._opponent_actions(need)
            try:
                self._substep(actions, need, moves, ended, rewards, final, final_info, terminated, truncated,
                              by_opponent=True)
            except IllegalActionError as err:
                raise IllegalActionError(f"the opponent {excerpt(self.opponent_spec)} returned an illegal action: "
                                         f"{err}") from None

    def _opponent_actions(self, need) -> np.ndarray:
        actions = np.full(self.num_envs, -1, dtype=np.int64)
        if self._random_opponent:
            drawn = self.batch.sample_actions()
            actions[need] = drawn[need]
        elif self._greedy is not None:
            actions = self._greedy.choose(self.batch, need, self._rng)
        elif self._batched_policy is not None:
            obs = self.batch.observations[need]
            masks = self.batch.action_masks[need]
            chosen = np.asarray(self._batched_policy({"observation": obs, "action_mask": masks}, masks))
            if chosen.shape != (int(need.sum()),) or not np.issubdtype(chosen.dtype, np.integer):
                raise IllegalActionError(f"the opponent policy must return {int(need.sum())} integer actions, got "
                                         f"{chosen.dtype} of shape {chosen.shape}")
            actions[need] = chosen
        else:
            for e in np.flatnonzero(need):
                actions[e] = int(self.opponent.act(self.batch.get_state(int(e))))
        return actions

    def _substep(self, actions, active, moves, ended, rewards, final, final_info, terminated, truncated,
                 by_opponent: bool):
        """One batch step of the games in ``active`` (the others' action is -1); record the agent's
        reward and the episodes that end, and seat the agent in the episodes that begin."""
        batch = self.batch
        side = self.player ^ batch.flips
        batch.final_view[:] = self.player  # a finished game's last observation is the agent's
        _, r, term, trunc, _ = batch._step_checked(actions, skip=by_opponent)
        if by_opponent:
            moves[active] += 1
        done = (term | trunc) & active
        # an episode the agent never moved in (only under a tiny max_moves) adds nothing to this step
        first = done & ~ended
        rewards[first] += r[first, self.player[first]]
        terminated |= term & first
        truncated |= trunc & first
        if first.any():
            self._record_final(first, side, r, final, final_info, moves)
        ended |= done
        if done.any():
            moves[done] = 0  # the step's info is the next episode's: its opening moves only
            self._new_seats(done)

    def _record_final(self, first, side, r, final, final_info, moves):
        b = self.num_envs
        if not final:
            final["final_obs"] = np.full(b, None, dtype=object)
            final["_final_obs"] = np.zeros(b, dtype=np.bool_)
            for key, dtype in zip(_INFO_KEYS, (np.int64, np.int64, np.float64, np.int64)):
                final_info[key] = np.zeros(b, dtype=dtype)
                final_info[f"_{key}"] = np.zeros(b, dtype=np.bool_)
        zero_mask = np.zeros(self.game.num_actions, dtype=np.int8)
        dtype = np.float32 if self.obs_dtype == "float32" else np.int8
        for e in np.flatnonzero(first):
            final["final_obs"][e] = {"observation": self.batch.final_observations[e].astype(dtype),
                                     "action_mask": zero_mask.copy()}
        final["_final_obs"] |= first
        reward = r[first, self.player[first]]
        final_info["side"][first] = side[first]
        final_info["winner"][first] = np.where(reward > 0, 0, np.where(reward < 0, 1, -1))
        final_info["score"][first] = self.batch.final_scores[first, side[first]]
        final_info["opponent_moves"][first] = moves[first]
        for key in _INFO_KEYS:
            final_info[f"_{key}"] |= first

    def _observation(self) -> dict:
        planes = self.batch.observations
        planes = planes.astype(np.float32) if self.obs_dtype == "float32" else planes.copy()
        return {"observation": planes, "action_mask": self.batch.action_masks.copy()}

    def _info(self, moves) -> dict:
        b = self.num_envs
        info = {"side": self.player ^ self.batch.flips.astype(np.int64),
                "winner": np.full(b, -1, dtype=np.int64), "score": np.zeros(b, dtype=np.float64),
                "opponent_moves": moves}
        for key in _INFO_KEYS:
            info[f"_{key}"] = self._all.copy()
        return info
