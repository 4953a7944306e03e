"""Many Lifeline games at once: the batched step and reset of ``territory_envs.vector``, and the
compiled random playouts of ``agents.mcts`` (:func:`lifeline_rollout`)."""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from ...core.batch import after_action, final_viewer, record_action, skip_game
from ...core.kernels import random_set_index, winner_player
from .structure import MEMO_DTYPE, memo_size
from .row import FLIP, NUM_SCALARS, PENDING, TERMINAL, TO_MOVE, WINNER
from .turn import act, new_game, observe

# --- batched play (territory_envs.vector) -------------------------------------------------------
def start_template(game):
    """The arrays of a new game of ``game`` (board, mask, alive_cell, links, memo, scalars), which
    the batch copies into a game that starts again rather than analyse the empty board each time."""
    n = game.num_cells
    arrays = (np.zeros(n, np.int8), np.zeros(n + 2, np.int8), np.zeros(n, np.bool_), np.zeros(n, np.int8),
              np.zeros(memo_size(n), MEMO_DTYPE), np.zeros(NUM_SCALARS, np.int32))
    new_game(*arrays, game.pie_index, game.options["komi"], *game.kernel_args)
    return arrays


@njit(cache=True, parallel=True)
def lifeline_batch_step(actions, board, mask, alive_cell, links, memo, scalars, move_number, pie, points,
                        max_moves, on_board, neighbours, degree, start, outputs):
    """One action in every game of the batch, in parallel; finished games record their last
    observation, then start again from ``start`` (:func:`start_template`). Lifeline has no score:
    ``final_scores`` stays 0. ``final_view`` and an action of -1 as in ``lin_batch_step``;
    ``outputs`` the env's ``(obs, rewards, terminated, truncated, final_obs, final_scores, final_view)``."""
    obs, rewards, terminated, truncated, final_obs, final_scores, final_view = outputs
    for e in prange(actions.shape[0]):
        if skip_game(e, actions, rewards, terminated, truncated):
            continue
        s = scalars[e]
        act(board[e], mask[e], alive_cell[e], links[e], memo[e], s, actions[e], pie, on_board, neighbours, degree)
        if after_action(e, s[TERMINAL] == 1, s[WINNER], s[FLIP], move_number, max_moves, mask, rewards,
                        terminated, truncated):
            final_scores[e, 0] = 0.0
            final_scores[e, 1] = 0.0
            viewer = final_viewer(final_view[e], s[TO_MOVE], s[FLIP])
            observe(board[e], mask[e], alive_cell[e], links[e], s, viewer, pie, points, on_board, final_obs[e])
            move_number[e] = 0
            board[e, :] = start[0]
            mask[e, :] = start[1]
            alive_cell[e, :] = start[2]
            links[e, :] = start[3]
            memo[e, :] = start[4]
            s[:] = start[5]
        observe(board[e], mask[e], alive_cell[e], links[e], s, s[TO_MOVE], pie, points, on_board, obs[e])


@njit(cache=True, parallel=True)
def lifeline_batch_reset(board, mask, alive_cell, links, memo, scalars, move_number, pie, komi, points, on_board,
                         neighbours, degree, obs):
    for e in prange(board.shape[0]):
        move_number[e] = 0
        new_game(board[e], mask[e], alive_cell[e], links[e], memo[e], scalars[e], pie, komi, on_board, neighbours, degree)
        observe(board[e], mask[e], alive_cell[e], links[e], scalars[e], 0, pie, points, on_board, obs[e])


# --- random playouts (agents.mcts) ----------------------------------------------------------------
@njit(cache=True)
def contested_cell(board, mask, enemy, neighbours, degree, cells):
    """A uniformly random legal cell next to a stone of colour ``enemy``, -1 if none (``cells``:
    scratch of the board's length)."""
    count = 0
    for i in range(board.shape[0]):
        if mask[i]:
            for d in range(degree[i]):
                if board[neighbours[i, d]] == enemy:
                    cells[count] = i
                    count += 1
                    break
    return cells[np.random.randint(count)] if count > 0 else -1


@njit(cache=True)
def lifeline_rollout(board, mask, alive_cell, links, memo, s, moves_left, pie, on_board, neighbours, degree,
                     contested_first, seed, trace):
    """Random legal actions from this position (copied, not changed) to the end, at most
    ``moves_left``. With ``contested_first``, the action is a uniformly random legal cell next to
    an enemy stone whenever there is one (except for the second stone of a double placement);
    otherwise it is uniform over the legal actions (swap and komi spends included). Returns
    ``(winner player or -1, actions)``: a player, not a side, because a swap moves the sides
    between the players."""
    np.random.seed(seed)
    board = board.copy()
    mask = mask.copy()
    alive_cell = alive_cell.copy()
    links = links.copy()
    memo = memo.copy()
    s = s.copy()
    cells = np.empty(board.shape[0], dtype=np.int32)
    for move in range(moves_left):
        action = -1
        if contested_first and s[PENDING] < 0:
            action = contested_cell(board, mask, 2 - s[TO_MOVE], neighbours, degree, cells)
        if action < 0:
            action = random_set_index(mask, mask.shape[0])
        if action < 0:  # cannot happen after act (it ends such games), but be safe
            return winner_player(1 - s[TO_MOVE], s[FLIP]), move
        record_action(trace, move, action, s)
        act(board, mask, alive_cell, links, memo, s, action, pie, on_board, neighbours, degree)
        if s[TERMINAL]:
            return winner_player(s[WINNER], s[FLIP]), move + 1
    return -1, moves_left
