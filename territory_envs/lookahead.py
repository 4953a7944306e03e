"""The greedy opponent for a whole batch: a one-ply lookahead played by the batch kernels.

:class:`BatchGreedy` chooses a move in every game of a :class:`~territory_envs.vector.VectorEnv`
that needs one. Each legal action of each such game is tried in a scratch batch (the game copied
into a slot, the action stepped by the game's own compiled batch step, no bound on the number of
moves), the positions reached are scored from the point of view of the player who acted, and the
best action is kept, ties broken at random. The scores are those of ``agents.greedy.evaluate``
(whose module docstring gives the table); ``tests/test_single_vector.py`` checks that every choice
is among the actions that function scores best:

* a game won +inf, lost -inf, drawn 0;
* Lin, Linage: the score margin, komi included;
* Lifeline: own stones on the board minus the opponent's, less the opponent's legal actions over
  ``num_actions + 1`` when the opponent is to move;
* Asli: as Lifeline, enemy stones in the prison counting for their captor.

There is no Python loop over games or actions: the copies, the scores and the choice are numpy
operations over all pairs (game, action) at once, in chunks of at most ``max_pairs``. The scratch
batch runs on the thread count of the batch it serves (:class:`~territory_envs.core.threads.FollowTuner`).
"""
from __future__ import annotations

import numpy as np

from .core.threads import FollowTuner
from .vector import VectorEnv

_NO_BOUND = 10**9  # max_moves of the scratch batch: a move tried never truncates the game


class BatchGreedy:
    """One-ply greedy choices for the games of a batch of ``game`` with ``options``."""

    def __init__(self, game: str, options: dict, max_pairs: int = 8192):
        self.scratch = VectorEnv(game, max_pairs, **{**options, "max_moves": _NO_BOUND})
        self.scratch.reset(seed=0)
        self.max_pairs = int(max_pairs)
        self._score = _SCORES[game]
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
        values = self._score(after, scratch.game, mover ^ after.flips()[:k].astype(np.int64), mover, k)
        reward = rewards[rows, mover]
        return np.where(terminated[:k], np.where(reward > 0, np.inf, np.where(reward < 0, -np.inf, 0.0)), values)


def _margin(first, second, side):
    return np.where(side == 0, first - second, second - first).astype(np.float64)


def _lin_score(after, game, side, mover, k):
    alive = after.alive[:k]
    return _margin(alive[:, 0].sum(axis=1), alive[:, 1].sum(axis=1) + game.options["komi"], side)


def _linage_score(after, game, side, mover, k):
    from .games.linage import HORIZONTAL_POINTS, VERTICAL_POINTS
    points = after.scalars[:k, [VERTICAL_POINTS, HORIZONTAL_POINTS]].astype(np.int64)
    return _margin(points[:, 0], points[:, 1] + game.options["komi"], side)


def _material(after, game, side, mover, k, extra=0):
    """Own stones minus enemy stones (plus ``extra``), less the opponent's mobility (see the module
    docstring), in the order of operations of ``agents.greedy.evaluate`` so that ties stay ties."""
    board = after.board[:k]
    own = np.count_nonzero(board == (side + 1)[:, None], axis=1)
    enemy = np.count_nonzero(board == (2 - side)[:, None], axis=1)
    opponent_to_act = after.agents()[:k] != mover
    mobility = np.where(opponent_to_act, after.mask[:k].sum(axis=1, dtype=np.int64), 0)
    return (own - enemy + extra) - mobility / (game.num_actions + 1)


def _asli_score(after, game, side, mover, k):
    r = after.rules
    prison = after.scalars[:k, r.PRISON_BLACK:r.PRISON_WHITE + 1].astype(np.int64)  # [black, white] stones
    rows = np.arange(k)
    return _material(after, game, side, mover, k, extra=prison[rows, 1 - side] - prison[rows, side])


_SCORES = {"lin": _lin_score, "linage": _linage_score, "lifeline": _material, "asli": _asli_score}
