"""Lifeline's compiled interface: the functions the generic kernels call (``territory_envs.core.compiled``
lists them) over one game's arrays ``g = (board, mask, s, alive_cell, links, memo)`` and the
constants ``p`` (``LifelineGame.params``: ``pie, points, on_board, neighbours, degree``, then the
six arrays of a new game in the order of ``g``, :func:`start_template`; flat, as a parallel loop
takes no tuple of arrays inside a tuple)."""
from __future__ import annotations

import numpy as np

from ...core.compiled import CompiledGame
from ...core.fields import TO_MOVE, head_code, may_move
from ...core.jit import kernel
from ...core.kernels import random_set_index
from .row import NUM_SCALARS, PENDING
from .structure import MEMO_DTYPE, memo_size
from .turn import act as act_rules, new_game as new_game_rules, observe as observe_side


def start_template(game) -> tuple:
    """The arrays of a new game of ``game`` in the order of ``g``, which :func:`new_game` copies
    rather than analyse the empty board each time."""
    n = game.num_cells
    board, mask, alive_cell, links = np.zeros(n, np.int8), np.zeros(n + 2, np.int8), np.zeros(n, np.bool_), np.zeros(n, np.int8)
    memo, s = np.zeros(memo_size(n), MEMO_DTYPE), np.zeros(NUM_SCALARS, np.int32)
    new_game_rules(board, mask, alive_cell, links, memo, s, game.pie_index, game.options["komi"], *game.kernel_args)
    return board, mask, s, alive_cell, links, memo


@kernel
def new_game(g, p):
    board, mask, s, alive_cell, links, memo = g
    board[:] = p[5]
    mask[:] = p[6]
    s[:] = p[7]
    alive_cell[:] = p[8]
    links[:] = p[9]
    memo[:] = p[10]
    return head_code(s)


@kernel
def act(g, action, p):
    board, mask, s, alive_cell, links, memo = g
    pie, on_board, neighbours, degree = p[0], p[2], p[3], p[4]
    return act_rules(board, mask, alive_cell, links, memo, s, action, pie, on_board, neighbours, degree)


@kernel
def observe(g, viewer, p, out):
    board, mask, s, alive_cell, links, _ = g
    observe_side(board, mask, alive_cell, links, s, viewer, may_move(s, viewer), p[0], p[1], p[2], out)


@kernel
def observe_mover(g, side, p, out):
    board, mask, s, alive_cell, links, _ = g
    observe_side(board, mask, alive_cell, links, s, side, True, p[0], p[1], p[2], out)


@kernel
def final_scores(g, p):
    return 0.0, 0.0  # Lifeline has no score


@kernel
def playout_scratch(g, p, moves_left):
    return np.empty(g[0].shape[0], dtype=np.int32)  # the cells of contested_cell


@kernel
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


@kernel
def playout_action(g, p, cells, uniform):
    """Unless ``uniform``, a uniformly random legal cell next to an enemy stone whenever there is
    one (except for the second stone of a double placement): a player loses when all its groups are
    gone, and uniform playouts spend their moves filling their own areas. Otherwise uniform over the
    legal actions (swap and komi spends included)."""
    board, mask, s = g[0], g[1], g[2]
    action = -1
    if not uniform and s[PENDING] < 0:
        action = contested_cell(board, mask, 2 - s[TO_MOVE], p[3], p[4], cells)
    if action < 0:
        action = random_set_index(mask, mask.shape[0])
    return action, False


COMPILED = CompiledGame("lifeline", new_game=new_game, act=act, observe=observe, observe_mover=observe_mover, final_scores=final_scores,
                        playout_action=playout_action, playout_scratch=playout_scratch)
