"""Linage's compiled interface: the functions the generic kernels call (``territory_envs.core.compiled``
lists them) over one game's arrays ``g = (board, mask, s, runs, safe, on_h, on_v, kind, memo)`` and
the constants ``p`` (``LinageGame.params``: ``height, width, line_length, neighbours, degree, komi,
komi_planes``)."""
from __future__ import annotations

from ...core.compiled import CompiledGame
from ...core.fields import clear_row, head_code, may_move
from ...core.jit import kernel
from ...core.kernels import EMPTY, random_set_index
from .turn import linage_act, linage_analyse, linage_scores, observe as observe_side


@kernel
def new_game(g, p):
    """Empty board, Vertical to move by player_0, the first analysis."""
    board, mask, s, runs, safe, on_h, on_v, kind, memo = g
    height, width, line_length, neighbours, degree, _, _ = p
    board[:] = EMPTY
    clear_row(s)
    linage_analyse(board, runs, safe, on_h, on_v, kind, mask, memo, s, height, width, line_length, neighbours, degree)
    return head_code(s)


@kernel
def act(g, action, p):
    board, mask, s, runs, safe, on_h, on_v, kind, memo = g
    height, width, line_length, neighbours, degree, komi, _ = p
    return linage_act(board, runs, safe, on_h, on_v, kind, mask, memo, s, action, height, width, line_length,
                      neighbours, degree, komi)


@kernel
def observe(g, viewer, p, out):
    board, mask, s, _, _, on_h, on_v, kind, _ = g
    observe_side(board, kind, on_h, on_v, mask, s, viewer, may_move(s, viewer), p[6], out)


@kernel
def observe_mover(g, side, p, out):
    board, mask, s, _, _, on_h, on_v, kind, _ = g
    observe_side(board, kind, on_h, on_v, mask, s, side, True, p[6], out)


@kernel
def final_scores(g, p):
    vertical, horizontal = linage_scores(g[2], p[5])
    return float(vertical), float(horizontal)


@kernel
def playout_action(g, p, scratch, uniform):
    """A uniformly random legal placement, and the pass only when none is legal (placements are the
    same for both sides, so two passes follow and end the game), or with ``uniform`` a pass as likely
    as each placement; played here without the planes' lines (``on_h``/``on_v``), which a playout
    never reads."""
    board, mask, s, runs, safe, on_h, on_v, kind, memo = g
    height, width, line_length, neighbours, degree, komi, _ = p
    n = board.shape[0]
    action = random_set_index(mask, n + 1 if uniform else n)  # mask[n]: the pass, legal while the game goes on
    if action < 0:
        action = n
    linage_act(board, runs, safe, on_h, on_v, kind, mask, memo, s, action, height, width, line_length, neighbours,
               degree, komi, False)
    return action, True


COMPILED = CompiledGame("linage", new_game=new_game, act=act, observe=observe, observe_mover=observe_mover, final_scores=final_scores,
                        playout_action=playout_action)
