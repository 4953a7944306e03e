"""Lin's compiled interface: the functions the generic kernels call (``territory_envs.core.compiled``
lists them) over one game's arrays ``g = (board, mask, s, alive)`` and the constants ``p``
(:attr:`LinGame.params <territory_envs.games.lin.state.LinGame>`: ``height, width, line_length,
neighbours, degree, komi, komi_planes``). Lin's playouts are the default ones, uniform."""
from __future__ import annotations

from ...core.compiled import CompiledGame
from ...core.fields import head_code, may_move
from ...core.jit import kernel
from .rules import lin_scores
from .turn import lin_act, lin_new_game, observe as observe_side


@kernel
def new_game(g, p):
    board, mask, s, alive = g
    height, width, line_length, neighbours, degree, _, _ = p
    lin_new_game(board, alive, mask, s, height, width, line_length, neighbours, degree)
    return head_code(s)


@kernel(inline="always")  # (inlined: the batch step reads the returned head, the rest folds away)
def act(g, action, p):
    board, mask, s, alive = g
    height, width, line_length, neighbours, degree, komi, _ = p
    return lin_act(board, alive, mask, s, action, height, width, line_length, neighbours, degree, komi)


@kernel
def observe(g, viewer, p, out):
    board, mask, s, alive = g
    observe_side(board, alive, mask, s, viewer, may_move(s, viewer), p[6], out)


@kernel
def observe_mover(g, side, p, out):
    board, mask, s, alive = g
    observe_side(board, alive, mask, s, side, True, p[6], out)


@kernel
def final_scores(g, p):
    black, white = lin_scores(g[3], p[5])
    return float(black), float(white)


COMPILED = CompiledGame("lin", new_game=new_game, act=act, observe=observe, observe_mover=observe_mover,
                        final_scores=final_scores)
