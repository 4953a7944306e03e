"""Threes' compiled interface (``territory_envs.core.compiled``): one game's arrays are ``g =
(board, mask, s)`` (no arrays of its own), its constants ``p = (size, line_length)``. Playouts are
the default ones, uniform."""
from numba import njit

from territory_envs.core.compiled import CompiledGame
from territory_envs.core.fields import TERMINAL, TO_MOVE, WINNER, clear_row, head_code

from .rules import row_through


@njit(cache=True)
def new_game(g, p):
    board, mask, s = g
    board[:] = 0
    mask[:] = 1
    clear_row(s)
    return head_code(s)


@njit(cache=True)
def act(g, action, p):
    board, mask, s = g
    size, line_length = p
    side = s[TO_MOVE]
    board[action] = side + 1
    mask[action] = 0
    s[TO_MOVE] = 1 - side
    if row_through(board, action, size, line_length):
        s[TERMINAL] = 1
        s[WINNER] = side
    else:
        full = True
        for i in range(board.shape[0]):
            full = full and board[i] != 0
        if full:
            s[TERMINAL] = 1  # a draw: the winner stays -1
    return head_code(s)


@njit(cache=True)
def observe(g, viewer, p, out):
    """Planes: own stones, opponent stones, empty points, the viewer's legal placements, its side."""
    board, mask, s = g
    size = p[0]
    legal = viewer == s[TO_MOVE] and s[TERMINAL] == 0
    for i in range(board.shape[0]):
        r, c = i // size, i % size
        out[r, c, 0] = board[i] == viewer + 1
        out[r, c, 1] = board[i] == 2 - viewer
        out[r, c, 2] = board[i] == 0
        out[r, c, 3] = legal and mask[i] != 0
        out[r, c, 4] = viewer


@njit(cache=True)
def final_scores(g, p):
    return 0.0, 0.0


COMPILED = CompiledGame("threes", new_game=new_game, act=act, observe=observe, final_scores=final_scores)
