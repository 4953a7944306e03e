"""A whole action, compiled: the end rule (:func:`lin_game_over`), the layout of the scalar row and
the declaration of the state's fields (:data:`FIELDS`), the turn the state class, the batch and the
playouts share (:func:`lin_act`, :func:`lin_new_game`), and the observation planes
(:data:`PLANES`)."""
from __future__ import annotations

import numpy as np

from ...core.fields import HEAD, TERMINAL, TO_MOVE, WINNER, Array, Fields, clear_row, head_code
from ...core.game import Plane
from ...core.jit import kernel
from ...core.kernels import EMPTY, winner_by_score
from .rules import lin_scores, place_lin, refresh_lin


@kernel
def lin_planes(board, alive, mask, observer, legal_for_observer, komi_plane, out):
    """Fill the observation ``out`` (H, W, 10) int8 for side ``observer`` (see PLANES)."""
    height, width = out.shape[0], out.shape[1]
    own = observer + 1
    opponent = 2 - observer
    # bitwise, not ``and``: short-circuit branches on random boards mispredict
    for r in range(height):
        for c in range(width):
            i = r * width + c
            b = board[i]
            a_own = alive[observer, i]
            a_opp = alive[1 - observer, i]
            out[r, c, 0] = b == own
            out[r, c, 1] = b == opponent
            out[r, c, 2] = b == EMPTY
            out[r, c, 3] = 1
            out[r, c, 4] = a_own
            out[r, c, 5] = a_opp
            out[r, c, 6] = a_own & a_opp
            out[r, c, 7] = legal_for_observer & (mask[i] != 0)
            out[r, c, 8] = observer
            out[r, c, 9] = komi_plane


PLANES = (
    Plane("own_stones", "stones of the observer"),
    Plane("opponent_stones", "stones of the opponent"),
    Plane("empty", "empty points"),
    Plane("on_board", "points of the board (all ones: Lin boards are square)"),
    Plane("own_living", "points in living domains of the observer's colour"),
    Plane("opponent_living", "points in living domains of the opponent's colour"),
    Plane("contested", "points in living domains of both colours (the game ends when none is left)"),
    Plane("legal", "the observer's legal placements (all zeros when the observer is not to move)"),
    Plane("side", "constant: 0 if the observer plays Black, 1 if White"),
    Plane("komi", "constant: the observer's komi as a percentage of the board's points, "
                  "round(100 * k / points) clipped to [-100, 100], k = +komi for White, -komi for Black",
          -100, 100),
)


@kernel
def lin_game_over(contested):
    """How Lin ends: no point lies in living domains of both colours (``contested``, as
    :func:`place_lin` counts them). The state, the batch step and the playouts all ask here."""
    return contested == 0


# the compiled rules' own Python, for the state class: no call into numba for a comparison
_game_over, _winner_by_score = lin_game_over.py_func, winner_by_score.py_func


# --- a whole action, compiled: the turn the state class, the batch and the playouts share -------
CONTESTED = HEAD  # the row's one slot of Lin's own: points in living domains of both colours
NUM_SCALARS = HEAD + 1

FIELDS = Fields(NUM_SCALARS, arrays=(Array("alive", np.bool_, lambda g: (2, g.num_cells)),))  # living domains


@kernel(inline="always")  # (inlined: the batch step reads the returned head, the rest folds away)
def lin_act(board, alive, mask, s, action, height, width, line_length, neighbours, degree, komi):
    """Play one legal placement for the side to move in row ``s``: the stone, the removals, the
    living domains and the mask, the turn passed, the end and its winner. Returns the row's
    :func:`head_code`."""
    side = s[TO_MOVE]
    _, contested = place_lin(board, side, action, height, width, line_length, neighbours, degree, alive, mask)
    s[CONTESTED] = contested
    s[TO_MOVE] = 1 - side
    if lin_game_over(contested):
        black, white = lin_scores(alive, komi)
        s[TERMINAL] = 1
        s[WINNER] = winner_by_score(black, white)
    return head_code(s)


@kernel
def lin_new_game(board, alive, mask, s, height, width, line_length, neighbours, degree):
    """Reset one game: empty board, Black to move by player_0, the first mask."""
    board[:] = EMPTY
    clear_row(s)
    s[CONTESTED] = refresh_lin(board, height, width, line_length, neighbours, degree, alive, mask, 0)


@kernel
def observe(board, alive, mask, s, observer, legal, komi_planes, out):
    """The planes of side ``observer`` (see PLANES) into ``out``: its legal placements if ``legal``
    (``core.fields.may_move``), and its komi plane (``komi_planes`` per side)."""
    lin_planes(board, alive, mask, observer, legal, komi_planes[observer], out)
