"""Batched envs: many games of one kind stepped together by compiled kernels.

``make_vec("lin", num_envs=1024, board_size=9)`` gives a :class:`VectorEnv`. Every game of the batch
has the options, rules and action indices of the AEC env. All state lives in preallocated numpy
arrays and ``step`` is one call into a numba kernel that runs the games in parallel (``prange``);
there is no Python loop over games or cells. ``num_threads=None`` (the default) lets the batch time
its own steps and run on the thread count that is fastest now, which falls to one thread when
another busy process shares the cores and comes back when it leaves
(:mod:`territory_envs.core.threads`); an integer fixes the count.

``reset(seed)`` returns ``(obs, info)``; ``step(actions)`` returns ``(obs, rewards, terminated,
truncated, info)`` with, for every game,

* ``obs`` int8 ``(B, H, W, C)``: the observation of the player to move (the planes of the game's
  env docstring), ``info["action_mask"]`` int8 ``(B, A)`` and ``info["agent"]`` (0 or 1: which of
  ``player_0`` / ``player_1`` moves);
* ``rewards`` float32 ``(B, 2)`` per agent (+1 / -1 at the step that ends a game, else 0);
* ``terminated`` / ``truncated`` bool ``(B,)``; a game that ended this step has already started
  again: in Gymnasium 1.x's names, ``info["final_obs"]`` holds its last observation (from the side
  that would have moved; its legal plane is empty after a rules end and kept after a truncation, as
  the AEC env's), ``info["final_info"]["scores"]`` its scores per side (first, second), komi
  included (0 for games without points), and ``info["_final_obs"]`` (also ``_final_info`` and
  ``final_info["_scores"]``) says which games ended this step (the rows of the others are stale).
  The keys are the same at every call. Every new game gives ``player_0`` the first side.

``sample_actions()`` draws a uniformly random legal action for every game in compiled code, from
one random stream per game seeded by ``reset(seed)``: the same seed gives the same draws whatever
the number of threads (random opponents, exploration, benchmarks; drawing in numpy instead, e.g.
``argmax(random * mask)``, runs on one thread at about three times the cost).

Actions must be legal (``info["action_mask"]``); an illegal one raises ``IllegalActionError`` naming
the games at fault and changes nothing. The legality check reads the batch's own mask, never an
array handed out: ``info["action_mask"]`` (and :attr:`VectorEnv.action_masks`) is a copy refreshed
at every ``reset`` and ``step``, so editing it changes nothing but that copy.

Returned arrays are reused: ``obs``, ``rewards``, ``terminated``, ``truncated`` and the arrays of
``info`` are the same objects at every call, overwritten in place by the next ``reset`` or ``step``
(copy what must outlive a step, as a replay buffer does). They are the batch's outputs, never read
back by it. ``get_state(i)`` / ``set_state(i, state)`` move a single game
out of the batch or into it through the state API of docs/spec.md (the move history is not kept by the
batch, so a state taken out starts its record there).

All four games have batched kernels; each game's turn logic is written once, in compiled code
that the single-game state classes call too.
"""
from __future__ import annotations

import numba
import numpy as np

from .core.batch import NEW_GAME, batch_step, illegal_actions, sample_legal
from .core.compile_cache import announce_compile
from .core.fields import FLIP, TO_MOVE
from .core.episode import check_seed
from .core.game import GameState, IllegalActionError
from .core.kernels import hash_insert, hash_rehash
from .core.options import excerpt
from .core.threads import ThreadTuner
from .registry import game_names, make_game


def _not_int(value) -> bool:
    return isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer))


def batch_actions(actions, num_envs: int) -> np.ndarray:
    """``actions`` as int64 ``(num_envs,)``; anything else (floats included) is an ``IllegalActionError``."""
    try:
        actions = np.asarray(actions)
    except (ValueError, TypeError):
        raise IllegalActionError(f"actions must be an integer array of shape ({num_envs},)") from None
    if actions.shape != (num_envs,) or not np.issubdtype(actions.dtype, np.integer):
        raise IllegalActionError(f"actions must be an integer array of shape ({num_envs},), got "
                                 f"{actions.dtype} of shape {actions.shape} (floats are refused)")
    return actions.astype(np.int64, copy=False)


class VectorEnv:
    """``num_envs`` games of one kind, stepped together (see the module docstring)."""

    def __init__(self, game: str, num_envs: int, num_threads: int | None = None, **options):
        if _not_int(num_envs) or num_envs < 1:
            raise ValueError(f"make_vec: num_envs={excerpt(num_envs)}: must be a positive integer")
        if num_threads is not None and (_not_int(num_threads) or
                                        not 1 <= num_threads <= numba.config.NUMBA_NUM_THREADS):
            raise ValueError(f"make_vec: num_threads={excerpt(num_threads)}: must be None or an integer from 1 "
                             f"to {numba.config.NUMBA_NUM_THREADS}")
        if not isinstance(game, str) or game not in game_names():
            raise ValueError(f"make_vec: unknown game {excerpt(game)}; the games are {', '.join(game_names())}")
        announce_compile(game, vector=True)
        self.game = make_game(game, **options)
        self.num_envs = int(num_envs)
        self.num_threads = None if num_threads is None else int(num_threads)
        self.threads = ThreadTuner(fixed=self.num_threads)  # the kernels' thread count (module docstring)
        self._batch = GameRows(self.game, self.num_envs)
        b, g = self.num_envs, self.game
        self.observations = np.zeros((b, *g.obs_shape), dtype=np.int8)
        self.rewards = np.zeros((b, 2), dtype=np.float32)
        self.terminated = np.zeros(b, dtype=np.bool_)
        self.truncated = np.zeros(b, dtype=np.bool_)
        self.final_observations = np.zeros((b, *g.obs_shape), dtype=np.int8)
        self.final_scores = np.zeros((b, 2), dtype=np.float32)
        # whose view a finished game's last observation takes: -1 the side that would move (the
        # module docstring); territory_envs.single_vector sets its agents' players
        self.final_view = np.full(b, -1, dtype=np.int8)
        # what the batch kernels write, in the order of their ``outputs`` argument
        self.outputs = (self.observations, self.rewards, self.terminated, self.truncated, self.final_observations,
                        self.final_scores, self.final_view)
        self.single_action_space_n = g.num_actions
        self._streams = None  # sample_actions' random state, one word per game (set by reset)
        self._bad = np.zeros(b, dtype=np.bool_)  # step's check: which actions are illegal
        self._masks_out = np.zeros_like(self._batch.mask)  # the copy handed out (see the module docstring)
        self._agents_out = np.zeros(b, dtype=np.int64)
        self._ended_out = np.zeros(b, dtype=np.bool_)  # the _final_obs mask: the games that ended this step
        self._final_info = {"scores": self.final_scores, "_scores": self._ended_out}  # reused, as the arrays are
        self._ready = False

    # --- the batch -----------------------------------------------------------------------------
    @property
    def action_masks(self) -> np.ndarray:
        """int8 ``(B, A)``: the legal actions of every game, a copy of the batch's own (reused)."""
        return self._masks_out

    @property
    def flips(self) -> np.ndarray:
        """``(B,)``: 1 where a swap gave ``player_0`` the second side, else 0 (the batch's own array)."""
        return self._batch.flips()

    @property
    def agents_to_move(self) -> np.ndarray:
        """int64 ``(B,)``: which agent (0 or 1) moves in every game (reused)."""
        return self._agents_out

    def _info(self) -> dict:
        np.copyto(self._masks_out, self._batch.mask)
        self._agents_out[:] = self._batch.agents()
        np.logical_or(self.terminated, self.truncated, out=self._ended_out)
        return {"action_mask": self._masks_out, "agent": self._agents_out,
                "final_obs": self.final_observations, "_final_obs": self._ended_out,
                "final_info": self._final_info, "_final_info": self._ended_out}

    def reset(self, seed: int | None = None):
        """Start every game anew. The games hold no randomness; ``seed`` seeds the streams of
        :meth:`sample_actions` (``None``: fresh entropy the first time, else the streams go on).
        Returns ``(obs, info)``."""
        seed = check_seed("reset", seed)
        if seed is not None or self._streams is None:
            self._streams = np.random.SeedSequence(seed).generate_state(self.num_envs, dtype=np.uint64)
        self.threads.begin()
        self._batch.reset(self)
        self.threads.end(timed=False)
        self.rewards[:] = 0
        self.terminated[:] = False
        self.truncated[:] = False
        self._ready = True
        return self.observations, self._info()

    def step(self, actions):
        if not self._ready:
            raise RuntimeError("step() called before reset()")
        return self._step_checked(batch_actions(actions, self.num_envs), skip=False)

    def _step_checked(self, actions, skip: bool):
        """Step after checking ``actions`` (int64 ``(B,)``) against the batch's mask; with ``skip``,
        games whose action is -1 sit the step out (no reward, no end, nothing changes)."""
        if illegal_actions(self._batch.mask, actions, self._bad, skip):
            bad = np.flatnonzero(self._bad)
            raise IllegalActionError(f"illegal actions in games {bad[:10].tolist()}"
                                     f"{' ...' if len(bad) > 10 else ''}: {actions[bad[:10]].tolist()}")
        self.threads.begin()
        self._batch.step(actions, self)
        self.threads.end()
        return self.observations, self.rewards, self.terminated, self.truncated, self._info()

    def sample_actions(self) -> np.ndarray:
        """A uniformly random legal action for every game, int64 ``(B,)``, drawn in compiled code
        from each game's own stream (see ``reset``)."""
        if not self._ready:
            raise RuntimeError("sample_actions() called before reset()")
        out = np.empty(self.num_envs, dtype=np.int64)
        self.threads.begin()
        sample_legal(self._batch.mask, self._streams, out)
        self.threads.end(timed=False)
        return out

    # --- single games in and out ----------------------------------------------------------------
    def _game_index(self, name: str, i) -> int:
        if not self._ready:
            raise RuntimeError(f"{name}() called before reset()")
        if _not_int(i) or not 0 <= i < self.num_envs:
            raise ValueError(f"{name}: game index {excerpt(i)} out of range 0..{self.num_envs - 1}")
        return int(i)

    def get_state(self, i: int) -> GameState:
        """Game ``i`` as a :class:`GameState` (a copy, e.g. for a search agent to branch from)."""
        i = self._game_index("get_state", i)
        b = self._batch
        data = self.game.new_state().to_dict()
        data.update({"board": b.board[i].tolist(), "move_number": int(b.move_number[i]), "history": []})
        data.update(b.state_fields(i))
        return self.game.state_from_dict(data)

    def set_state(self, i: int, state: GameState) -> None:
        """Put a copy of ``state`` (same game and options, not finished) in slot ``i``; its observation
        and mask appear in ``action_masks`` and in the next step's outputs."""
        i = self._game_index("set_state", i)
        if not isinstance(state, GameState):
            raise ValueError(f"set_state: state={excerpt(state)}: must be a game state (GameState)")
        if state.game.name != self.game.name or state.game.options != self.game.options:
            raise ValueError(f"set_state: the state is one of {state.game.describe()}, not of {self.game.describe()}")
        if state.terminal:
            raise ValueError("set_state: the game is over; the batch holds games in progress")
        b = self._batch
        b.load(i, state)
        self.observations[i] = state.observation(state.current_player)
        self._masks_out[i] = b.mask[i]
        self._agents_out[i] = state.current_player

    def spread_over_game_phases(self, seed: int = 0, games: int = 32) -> None:
        """Put every game of the batch at a random position of a random game (uniform over the
        positions of ``games`` seeded random games). Right after ``reset`` all games are at move 0
        and move in step; spread out, the batch is in the steady state of one that has run for
        long (timing windows, or self-play that should not see every opening at once)."""
        if not self._ready:
            raise RuntimeError("spread_over_game_phases() called before reset()")
        rng = np.random.default_rng(seed)
        pool = []
        for _ in range(games):
            state = self.game.new_state()
            while not state.over:
                pool.append(state.clone())
                legal = state.legal_actions()
                state.apply(int(legal[rng.integers(len(legal))]))
        for i in range(self.num_envs):
            self.set_state(i, pool[rng.integers(len(pool))])

    def memory_bytes(self) -> int:
        """Bytes held by the batch's arrays."""
        own = [self.observations, self.rewards, self.terminated, self.truncated, self.final_observations,
               self.final_scores]
        return sum(a.nbytes for a in own) + sum(a.nbytes for a in vars(self._batch).values()
                                                 if isinstance(a, np.ndarray))


class GameRows:
    """The arrays of many games of one kind, one row per game, and the calls into the generic
    kernels (:mod:`territory_envs.core.batch`): the batch of :class:`VectorEnv`, or any set of
    games kept side by side (a tree search's nodes). Besides the board, the mask and the move
    number, the rows hold what the game's state declares (:mod:`territory_envs.core.fields`):
    ``scalars``, one row ``s`` per game, each declared array, one row per game under the array's
    name, and each table (one per game, every game's grown together before one could fill)."""

    def __init__(self, game, num_envs: int):
        self.game = game
        self.fields = game.state_class.fields
        self.board = np.zeros((num_envs, game.num_cells), dtype=np.int8)
        self.mask = np.zeros((num_envs, game.num_actions), dtype=np.int8)
        self.move_number = np.zeros(num_envs, dtype=np.int32)
        self.scalars = np.zeros((num_envs, self.fields.size), dtype=np.int32)
        for array in self.fields.arrays:
            setattr(self, array.name, array.new(game, num_envs))
        for table in self.fields.tables:
            setattr(self, table.name, table.new(num_envs))
        # the arrays that hold one row per game: all a game's state in the batch
        self.game_arrays = (("board", "mask", "move_number", "scalars") + tuple(a.name for a in self.fields.arrays)
                            + tuple(t.name for t in self.fields.tables))
        self._arrays = None  # the kernels' tuple of arrays (core.compiled), rebuilt when a table grows

    def arrays(self) -> tuple:
        """The arrays in the order of one game's tuple of the compiled interface."""
        if self._arrays is None:
            f = self.fields
            self._arrays = (self.board, self.mask, self.scalars, *(getattr(self, a.name) for a in f.arrays),
                            *(getattr(self, t.name) for t in f.tables))
        return self._arrays

    def agents(self):
        return self.scalars[:, TO_MOVE] ^ self.scalars[:, FLIP]

    def flips(self):
        return self.scalars[:, FLIP]

    def reset(self, env):
        for table in self.fields.tables:
            setattr(self, table.name, table.new(self.board.shape[0]))
        self._arrays = None
        self.step(np.full(self.board.shape[0], NEW_GAME, dtype=np.int64), env)

    def step(self, actions, env):
        self.make_room()
        g = self.game
        batch_step(g.compiled, actions, self.arrays(), g.params, self.move_number, g.max_moves, *env.outputs)

    def make_room(self, keys: int | None = None) -> None:
        """Grow every table so that each game can take ``keys`` more keys (by default the one a turn
        adds) and keep half of it free."""
        for table in self.fields.tables:
            self._make_room(table, keys)

    def _make_room(self, table, keys: int | None = None) -> None:
        """Double every game's ``table`` until it holds ``keys`` more keys than the fullest game's
        count (by default the one key a turn adds) with half of it free."""
        rows = getattr(self, table.name)
        need = 2 * (int(self.scalars[:, table.count].max()) + (2 if keys is None else keys))
        if need > rows.shape[1]:
            size = rows.shape[1]
            while size < need:
                size *= 2
            bigger = np.zeros((rows.shape[0], size), dtype=np.uint64)
            hash_rehash(rows, bigger)
            setattr(self, table.name, bigger)
            self._arrays = None

    def state_fields(self, i: int) -> dict:
        """Game ``i``'s state-dict fields besides the board, the move number and the history."""
        s = self.scalars[i]
        out = {"to_move": int(s[TO_MOVE]), "flip": int(s[FLIP]), **self.fields.row_dict(s)}
        for table in self.fields.tables:
            row = getattr(self, table.name)[i]
            out[table.name] = sorted(int(h) for h in row[row != 0])
        return out

    def load(self, i: int, state) -> None:
        """``state`` (of this game, not finished) into slot ``i``."""
        self.board[i] = state.board
        self.move_number[i] = state.move_number
        self.mask[i] = state.mask
        self.scalars[i] = state.s
        for array in self.fields.arrays:
            getattr(self, array.name)[i] = getattr(state, array.name)
        for table in self.fields.tables:
            keys = getattr(state, table.name)
            keys = keys[keys != 0]
            self._make_room(table, len(keys) + 2)
            rows = getattr(self, table.name)
            rows[i] = 0
            for h in keys:
                hash_insert(rows[i], h)

    def copy_games(self, source: "GameRows", index: np.ndarray) -> None:
        """Games ``index`` of ``source`` (a batch of the same game) into slots ``0..len(index)-1``."""
        for table in self.fields.tables:  # tables grown apart: take the source's size
            if getattr(self, table.name).shape[1] != getattr(source, table.name).shape[1]:
                setattr(self, table.name, np.zeros((self.board.shape[0], getattr(source, table.name).shape[1]),
                                                   dtype=np.uint64))
                self._arrays = None
        k = len(index)
        for name in self.game_arrays:
            getattr(self, name)[:k] = getattr(source, name)[index]


def make_vec(game: str, num_envs: int, num_threads: int | None = None, **options) -> VectorEnv:
    """A batch of ``num_envs`` games (see :class:`VectorEnv`)."""
    return VectorEnv(game, num_envs, num_threads=num_threads, **options)
