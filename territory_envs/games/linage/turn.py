"""A whole action, compiled: the end rule (:func:`linage_game_over`), the layout of the scalar row
and the declaration of the state's fields (:data:`FIELDS`), the turn the state class, the batch and
the playouts share (:func:`linage_act`, :func:`linage_analyse`), and the observation planes
(:data:`PLANES`)."""
from __future__ import annotations

import numpy as np

from ...core.fields import HEAD, TERMINAL, TO_MOVE, WINNER, Array, Fields, RowField, head_code
from ...core.game import Plane
from ...core.jit import kernel
from ...core.kernels import EMPTY, winner_by_score
from .layout import FREE, HORIZONTAL_OWNS, MEMO_DTYPE, RUNS_DTYPE, VERTICAL_OWNS, memo_size
from .lines import line_facts
from .regions import place_stone, region_facts


@kernel
def linage_planes(board, kind, on_h, on_v, mask, observer, legal_for_observer, komi_plane, passed, out):
    """Fill the observation ``out`` (H, W, 12) int8 for side ``observer`` (see PLANES)."""
    height, width = out.shape[0], out.shape[1]
    own = VERTICAL_OWNS if observer == 0 else HORIZONTAL_OWNS
    opp = HORIZONTAL_OWNS if observer == 0 else VERTICAL_OWNS
    for r in range(height):
        for c in range(width):
            i = r * width + c
            out[r, c, 0] = board[i] != EMPTY
            out[r, c, 1] = board[i] == EMPTY
            out[r, c, 2] = 1
            out[r, c, 3] = kind[i] == own
            out[r, c, 4] = kind[i] == opp
            out[r, c, 5] = kind[i] == FREE
            out[r, c, 6] = on_h[i]
            out[r, c, 7] = on_v[i]
            out[r, c, 8] = legal_for_observer & (mask[i] != 0)  # bitwise: no branch to mispredict
            out[r, c, 9] = observer
            out[r, c, 10] = komi_plane
            out[r, c, 11] = passed


PLANES = (
    Plane("stones", "stones (neutral, shared by both players)"),
    Plane("empty", "empty points"),
    Plane("on_board", "points of the board (all ones)"),
    Plane("own_regions", "empty points of regions owned by the observer"),
    Plane("opponent_regions", "empty points of regions owned by the opponent"),
    Plane("free_regions", "empty points of free regions (holding lines of both directions)"),
    Plane("on_horizontal_line", "empty points on some horizontal line"),
    Plane("on_vertical_line", "empty points on some vertical line"),
    Plane("legal", "the observer's legal placements (zeros when the observer is not to move)"),
    Plane("side", "constant: 0 if the observer plays Vertical, 1 if Horizontal"),
    Plane("komi", "constant: round(100 * k / points) in [-100, 100], k = +komi for Horizontal, "
                  "-komi for Vertical", -100, 100),
    Plane("opponent_passed", "constant: 1 if the last move was a pass (another pass ends the game)"),
)


@kernel
def linage_game_over(passes, free_regions):
    """How Linage ends: two passes in a row, or no free region left (no placement is possible, so
    both could only pass). The state, the batch step and the playouts all ask here."""
    return passes >= 2 or free_regions == 0


# the compiled rules' own Python, for the state class: no call into numba for a comparison
_game_over, _winner_by_score = linage_game_over.py_func, winner_by_score.py_func


# --- a whole action, compiled: the turn the state class, the batch and the playouts share -------
# the row's slots of Linage's own: passes in a row (stored), then the analysis (derived)
PASSES, FREE_REGIONS, VERTICAL_POINTS, HORIZONTAL_POINTS = range(HEAD, HEAD + 4)
NUM_SCALARS = HEAD + 4

FIELDS = Fields(
    NUM_SCALARS,
    row=(RowField("passes", PASSES, high=2),),
    # the order of linage_act's arguments: the lines (line_facts), then the regions (region_facts)
    arrays=(Array("runs", RUNS_DTYPE, lambda g: (4, g.num_cells)),
            Array("safe", np.uint8, lambda g: (g.num_cells,)),
            Array("on_h", np.bool_, lambda g: (g.num_cells,)),
            Array("on_v", np.bool_, lambda g: (g.num_cells,)),
            Array("kind", np.int8, lambda g: (g.num_cells,)),
            Array("memo", MEMO_DTYPE, lambda g: (memo_size(g.num_cells),))))


@kernel(inline="always")
def linage_scores(s, komi):
    """The sides' scores from row ``s`` (or from the columns of a batch's rows, ``scalars.T``):
    Vertical's points, and Horizontal's plus ``komi``."""
    return s[VERTICAL_POINTS], s[HORIZONTAL_POINTS] + komi


@kernel
def linage_analyse(board, runs, safe, on_h, on_v, kind, mask, memo, s, height, width, line_length, neighbours, degree):
    """Every derived fact of a position (lines, regions, the mask, the row's analysis) from the
    board alone."""
    n = board.shape[0]
    line_facts(board, height, width, line_length, runs, safe, on_h, on_v)
    free, vertical, horizontal = region_facts(board, height, width, line_length, neighbours, degree, runs, safe, kind,
                                              mask[:n], memo)
    s[FREE_REGIONS] = free
    s[VERTICAL_POINTS] = vertical
    s[HORIZONTAL_POINTS] = horizontal
    mask[n] = 1  # the pass


@kernel
def linage_act(board, runs, safe, on_h, on_v, kind, mask, memo, s, action, height, width, line_length, neighbours,
               degree, komi, planes=True):
    """Play one legal action (a placement, or the pass ``n``) for the side to move in row ``s``,
    every derived fact brought up to date (``on_h``/``on_v`` only with ``planes``), the end and
    its winner. Returns the row's :func:`head_code`."""
    n = board.shape[0]
    if action == n:
        s[PASSES] += 1
    else:
        s[PASSES] = 0
        free, vertical, horizontal = place_stone(board, action, height, width, line_length, neighbours, degree, runs,
                                                 safe, on_h, on_v, kind, mask[:n], memo, s[FREE_REGIONS],
                                                 s[VERTICAL_POINTS], s[HORIZONTAL_POINTS], planes)
        s[FREE_REGIONS] = free
        s[VERTICAL_POINTS] = vertical
        s[HORIZONTAL_POINTS] = horizontal
    s[TO_MOVE] = 1 - s[TO_MOVE]
    if linage_game_over(s[PASSES], s[FREE_REGIONS]):
        s[TERMINAL] = 1
        vertical, horizontal = linage_scores(s, komi)
        s[WINNER] = winner_by_score(vertical, horizontal)
    return head_code(s)


@kernel
def observe(board, kind, on_h, on_v, mask, s, observer, legal, komi_planes, out):
    """The planes of side ``observer`` (see PLANES) into ``out``: its legal placements if ``legal``
    (``core.fields.may_move``), its komi plane (``komi_planes`` per side), the last pass."""
    linage_planes(board, kind, on_h, on_v, mask, observer, legal, komi_planes[observer], s[PASSES] > 0, out)
