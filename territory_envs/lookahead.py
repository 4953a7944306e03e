"""The greedy opponent for a whole batch: a one-ply lookahead played by the batch kernels.

:class:`BatchGreedy` chooses a move in every game of a :class:`~territory_envs.vector.VectorEnv`
that needs one. Each legal action of each such game is tried in a scratch batch (the game copied
into a slot, the action stepped by the game's own compiled batch step, no bound on the number of
moves), the positions reached are scored from the point of view of the player who acted, and the
best action is kept, ties broken at random. A game won scores +inf, lost -inf, drawn 0; any other
position the game's own evaluation (``GameDeclaration.evaluate``), as ``agents.greedy.evaluate``
scores it; ``tests/test_single_vector.py`` checks that every choice is among the actions that
function scores best.

There is no Python loop over games or actions: the copies, the scores and the choice are numpy
operations over all pairs (game, action) at once, in chunks of at most ``max_pairs``. The scratch
batch runs on the thread count of the batch it serves (:class:`~territory_envs.core.threads.FollowTuner`).
"""
from __future__ import annotations

import numpy as np

from .core.evaluation import Positions
from .core.threads import FollowTuner
from .vector import VectorEnv

_NO_BOUND = 10**9  # max_moves of the scratch batch: a move tried never truncates the game


class BatchGreedy:
    """One-ply greedy choices for the games of a batch of ``game`` with ``options``."""

    def __init__(self, game: str, options: dict, max_pairs: int = 8192):
        self.scratch = VectorEnv(game, max_pairs, **{**options, "max_moves": _NO_BOUND})
        self.scratch.reset(seed=0)
        self.max_pairs = int(max_pairs)
        self._evaluate = self.scratch.game.declaration.evaluate
        self._skip = np.full(self.max_pairs, -1, dtype=np.int64)

    def choose(self, batch: VectorEnv, need: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """int64 ``(B,)``: the greedy action of every game where ``need`` is set, -1 elsewhere.
        ``batch`` is left unchanged; ``rng`` breaks ties."""
        if getattr(self.scratch.threads, "leader", None) is not batch.threads:
            self.scratch.threads = FollowTuner(batch.threads)
        games, actions = np.nonzero(batch._batch.mask[need] > 0)  # row-major: pairs grouped by game
        games = np.flatnonzero(need)[games]
        movers = batch._batch.agents()[games].astype(np.int64)
        values = np.empty(len(games))
        for start in range(0, len(games), self.max_pairs):
            part = slice(start, start + self.max_pairs)
            values[part] = self._try(batch, games[part], actions[part], movers[part])
        # per game the last pair in (game, value, random) order: the best value, ties at random
        order = np.lexsort((rng.random(len(games)), values, games))
        last = np.flatnonzero(np.r_[games[order][1:] != games[order][:-1], True])
        chosen = np.full(batch.num_envs, -1, dtype=np.int64)
        chosen[games[order][last]] = actions[order][last]
        return chosen

    def _try(self, batch: VectorEnv, games: np.ndarray, actions: np.ndarray, mover: np.ndarray) -> np.ndarray:
        """The value of playing ``actions[i]`` in game ``games[i]`` for ``mover[i]``, who plays it."""
        k = len(games)
        scratch = self.scratch
        scratch._batch.copy_games(batch._batch, games)
        step = self._skip.copy()
        step[:k] = actions
        _, rewards, terminated, _, _ = scratch._step_checked(step, skip=True)
        rows = np.arange(k)
        after = scratch._batch
        side = mover ^ after.flips()[:k].astype(np.int64)
        values = self._evaluate(Positions(after, k), scratch.game, side, after.agents()[:k] != mover)
        reward = rewards[rows, mover]
        return np.where(terminated[:k], np.where(reward > 0, np.inf, np.where(reward < 0, -np.inf, 0.0)), values)
