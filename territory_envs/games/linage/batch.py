"""Many Linage games at once: the batched step and reset of ``territory_envs.vector``, and the
compiled random playouts of ``agents.mcts`` (:func:`linage_rollout`)."""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from ...core.batch import after_action, final_viewer, record_action, skip_game
from ...core.fields import FLIP, TERMINAL, TO_MOVE, WINNER, clear_row
from ...core.kernels import EMPTY, random_set_index, winner_player
from .layout import RUNS_DTYPE
from .lines import line_facts
from .turn import HORIZONTAL_POINTS, VERTICAL_POINTS, linage_act, linage_analyse, observe

# --- batched play (territory_envs.vector) -------------------------------------------------------
@njit(cache=True, parallel=True)
def linage_batch_step(actions, board, mask, facts, scalars, move_number, geo, komi, komi_planes, max_moves, outputs):
    """One action in every game of the batch, in parallel; finished games record their last
    observation and scores, then start again (see ``lin_batch_step``); ``outputs`` is the env's
    ``(obs, rewards, terminated, truncated, final_obs, final_scores, final_view)``. ``facts`` holds
    the arrays of :data:`FIELDS` in their order, kept from step to step (a stone changes the lines
    of its row and column only); ``geo`` is ``LinageGame.geo_args``."""
    obs, rewards, terminated, truncated, final_obs, final_scores, final_view = outputs
    runs, safe, on_h, on_v, kind, memo = facts
    height, width, line_length, neighbours, degree = geo
    for e in prange(actions.shape[0]):
        if skip_game(e, actions, rewards, terminated, truncated):
            continue
        s = scalars[e]
        linage_act(board[e], runs[e], safe[e], on_h[e], on_v[e], kind[e], mask[e], memo[e], s, actions[e], height,
                   width, line_length, neighbours, degree, komi)
        if after_action(e, s[TERMINAL] == 1, s[WINNER], s[FLIP], move_number, max_moves, mask, rewards, terminated,
                        truncated):
            final_scores[e, 0] = s[VERTICAL_POINTS]
            final_scores[e, 1] = s[HORIZONTAL_POINTS] + komi
            viewer = final_viewer(final_view[e], s[TO_MOVE], s[FLIP])
            observe(board[e], kind[e], on_h[e], on_v[e], mask[e], s, viewer, komi_planes, final_obs[e])
            move_number[e] = 0
            _linage_new_game(board[e], runs[e], safe[e], on_h[e], on_v[e], kind[e], mask[e], memo[e], s, geo)
        observe(board[e], kind[e], on_h[e], on_v[e], mask[e], s, s[TO_MOVE], komi_planes, obs[e])


@njit(cache=True)
def _linage_new_game(board, runs, safe, on_h, on_v, kind, mask, memo, s, geo):
    """Reset one game: empty board, Vertical to move by player_0, the first analysis."""
    board[:] = EMPTY
    clear_row(s)
    height, width, line_length, neighbours, degree = geo
    linage_analyse(board, runs, safe, on_h, on_v, kind, mask, memo, s, height, width, line_length, neighbours, degree)


@njit(cache=True, parallel=True)
def linage_batch_reset(board, mask, facts, scalars, move_number, geo, komi_planes, obs):
    runs, safe, on_h, on_v, kind, memo = facts
    for e in prange(board.shape[0]):
        move_number[e] = 0
        _linage_new_game(board[e], runs[e], safe[e], on_h[e], on_v[e], kind[e], mask[e], memo[e], scalars[e], geo)
        observe(board[e], kind[e], on_h[e], on_v[e], mask[e], scalars[e], 0, komi_planes, obs[e])


# --- random playouts (agents.mcts) ----------------------------------------------------------------
@njit(cache=True)
def linage_rollout(board, mask, kind, memo, s, moves_left, height, width, line_length, neighbours, degree, komi,
                   uniform, seed, trace):
    """Uniformly random legal placements from this position (copied, not changed; ``kind``,
    ``memo`` and the row ``s`` hold its analysis) to the end, at most ``moves_left`` actions; a
    pass only when no placement is legal (placements are the same for both sides, so two passes
    follow and end the game), or with ``uniform`` a pass as likely as each placement. Returns
    ``(winner player or -1, actions)``; actions and players go into ``trace``."""
    np.random.seed(seed)
    board = board.copy()
    n = board.shape[0]
    legal = mask.copy()
    legal[n] = 1
    kind = kind.copy()
    memo = memo.copy()
    s = s.copy()
    on_h = np.zeros(n, dtype=np.bool_)
    on_v = np.zeros(n, dtype=np.bool_)
    runs = np.empty((4, n), dtype=RUNS_DTYPE)
    safe = np.empty(n, dtype=np.uint8)
    line_facts(board, height, width, line_length, runs, safe, on_h, on_v, False)
    for move in range(moves_left):
        action = random_set_index(legal, n + 1 if uniform else n)  # legal[n]: the pass, always legal
        if action < 0:
            action = n  # no placement is legal: pass
        record_action(trace, move, action, s)
        linage_act(board, runs, safe, on_h, on_v, kind, legal, memo, s, action, height, width, line_length, neighbours,
                   degree, komi, False)
        if s[TERMINAL]:
            return winner_player(s[WINNER], s[FLIP]), move + 1
    return -1, moves_left
