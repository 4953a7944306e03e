"""Many Lin games at once: the batched step and reset of ``territory_envs.vector``, and the
compiled random playouts of ``agents.mcts`` (:func:`lin_rollout`)."""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from ...core.batch import after_action, final_viewer, record_action, skip_game
from ...core.fields import FLIP, TERMINAL, TO_MOVE, WINNER
from ...core.kernels import random_set_index, winner_player
from .rules import lin_scores
from .turn import lin_act, lin_new_game, lin_planes, observe

# --- batched play (territory_envs.vector) -------------------------------------------------------
@njit(cache=True, parallel=True)
def lin_batch_step(actions, board, alive, mask, scalars, move_number, height, width, line_length, neighbours,
                   degree, komi, komi_planes, max_moves, obs, rewards, terminated, truncated, final_obs, final_scores,
                   final_view):
    """One action in every game of the batch, in parallel. A game that ends records its last
    observation and scores in ``final_obs``/``final_scores`` and starts again; ``obs`` then holds
    the new game's first observation. The last observation is of player ``final_view[e]``, or of
    the side that would move where that is -1. A game whose action is -1 sits the step out: it
    reports no reward and no end, and nothing of it changes. The arrays from ``obs`` on are the
    env's ``outputs``, in that order; the other games' steps take them as one tuple, but Lin's step
    is cheap enough that reading them from a tuple costs it 3%."""
    for e in prange(actions.shape[0]):
        if skip_game(e, actions, rewards, terminated, truncated):
            continue
        s = scalars[e]
        head = lin_act(board[e], alive[e], mask[e], s, actions[e], height, width, line_length, neighbours, degree,
                       komi)
        side, flip, over = head & 1, (head >> 1) & 1, (head >> 2) & 1 == 1  # (head_code: no reads of the row)
        black, white = 0, komi
        if over or move_number[e] + 1 >= max_moves:
            black, white = lin_scores(alive[e], komi)
        if after_action(e, over, ((head >> 3) & 3) - 1, flip, move_number, max_moves, mask, rewards, terminated,
                        truncated):
            final_scores[e, 0] = black
            final_scores[e, 1] = white
            observe(board[e], alive[e], mask[e], s, final_viewer(final_view[e], side, flip), komi_planes, final_obs[e])
            move_number[e] = 0
            lin_new_game(board[e], alive[e], mask[e], s, height, width, line_length, neighbours, degree)
            side = 0
        # the side to move in a game that goes on: the legal plane is on (a constant the compiler folds)
        lin_planes(board[e], alive[e], mask[e], side, True, komi_planes[side], obs[e])


@njit(cache=True, parallel=True)
def lin_batch_reset(board, alive, mask, scalars, move_number, height, width, line_length, neighbours, degree,
                    komi_planes, obs):
    for e in prange(board.shape[0]):
        move_number[e] = 0
        lin_new_game(board[e], alive[e], mask[e], scalars[e], height, width, line_length, neighbours, degree)
        observe(board[e], alive[e], mask[e], scalars[e], 0, komi_planes, obs[e])


# --- random playouts (agents.mcts) ----------------------------------------------------------------
@njit(cache=True)
def lin_rollout(board, alive, mask, s, moves_left, height, width, line_length, neighbours, degree, komi, seed,
                trace):
    """Uniformly random legal placements from this position (copied, not changed) to the end, at
    most ``moves_left`` of them. Returns ``(winner player or -1 for a draw or the bound, moves)``;
    the actions and the players who played them go into ``trace`` (2, L) as far as it reaches."""
    np.random.seed(seed)
    board = board.copy()
    alive = alive.copy()
    mask = mask.copy()
    s = s.copy()
    n = board.shape[0]
    for move in range(moves_left):
        cell = random_set_index(mask, n)
        if cell < 0:
            return winner_player(1 - s[TO_MOVE], s[FLIP]), move  # no legal action: the side to move loses
        record_action(trace, move, cell, s)
        lin_act(board, alive, mask, s, cell, height, width, line_length, neighbours, degree, komi)
        if s[TERMINAL]:
            return winner_player(s[WINNER], s[FLIP]), move + 1
    return -1, moves_left
