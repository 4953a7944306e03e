"""The legal mask of the side to move, every action: where the local rule of :mod:`.rules` (or the
usual turn of :mod:`.structure`, which keeps it) does not hold, the masks of the other turns: a
single stone by exact simulation (:func:`exact_single_mask`), the first and second stones of a
double first turn (:func:`first_stone_mask`, :func:`second_stone_mask`, with the lemma of the
package docstring); and the special actions (:func:`finish_mask`)."""
from __future__ import annotations

import numpy as np

from ...core.fields import TO_MOVE
from ...core.jit import kernel
from ...core.kernels import EMPTY, adjacent, colour_of, has_sharing_partner, is_listed, opponent_colour
from .row import ALL_ALIVE, FIRST_BLACK, PENDING, REMOVAL_ON
from .rules import REMOVAL_FROM, STRONG, komi_spend_legal, swap_available, turn_changes_board
from .structure import GROUP, LIFE, REGION, memo_blocks


@kernel
def exact_single_mask(board, side, removal, on_board, neighbours, degree, mask):
    for p in range(board.shape[0]):
        mask[p] = on_board[p] and board[p] == EMPTY and turn_changes_board(
            board, side, p, -1, removal, on_board, neighbours, degree)


# The first turn's masks rest on a lemma. When the side to move has no stone but its pair, no enemy
# group alive before the pair dies of it. Such a group A, were it to die, would with the regions next
# to it make a connected set of cells whose only neighbours on the board are the pair's two stones
# (a stone next to one of those regions and not in A would be the mover's, since an enemy one would
# keep A alive). The hexhex board is 3-connected (no two cells cut it apart: the tests check it), so
# that set and the pair would be the whole board, and A the only enemy group, lone and so dead before.
# A pair is therefore a legal turn iff it lives (its stones do not touch and share a region) or an
# enemy group is dead already, which stays dead whatever is added.


@kernel
def first_stone_mask(board, side, quick, on_board, neighbours, degree, mask):
    """First stone of a double placement: legal iff some second stone completes a legal turn.
    With ``quick`` (the side has no stone on the board, as on every first turn), by the lemma above:
    iff some empty neighbour ``x`` has an empty neighbour not touching the stone (the two lone
    stones then share x's region and live), or the stone leaves an enemy group dead and a second
    empty cell remains. Otherwise the partner is searched by simulation."""
    n = board.shape[0]
    empties = 0
    for p in range(n):
        empties += on_board[p] and board[p] == EMPTY
    for p in range(n):
        mask[p] = False
        if not on_board[p] or board[p] != EMPTY:
            continue
        if quick:
            # (a lone stone of a side with no other stone dies: the board changes iff an enemy dies)
            mask[p] = has_sharing_partner(board, p, neighbours, degree) or (
                empties >= 2 and turn_changes_board(board, side, p, -1, True, on_board, neighbours, degree))
            continue
        for k in range(1, n):
            q = (p + n // 2 + k) % n
            if q != p and on_board[q] and board[q] == EMPTY and turn_changes_board(
                    board, side, p, q, True, on_board, neighbours, degree):
                mask[p] = True
                break


@kernel
def second_stone_mask(start, side, first, quick, memo, on_board, neighbours, degree, mask):
    """Second stone of a double placement (``start``: the board before the first stone; ``memo``:
    exact for the board with it): legal iff the pair is a legal turn. With ``quick`` (the side has
    no other stone), by the lemma above: every second stone if an enemy group is dead beside the
    first, and otherwise those that do not touch the first and lie in a region next to it.
    Otherwise simulate the pair."""
    n = start.shape[0]
    blocks = memo_blocks(memo, n)
    enemies_alive = True
    near = np.full(6, -1, dtype=np.int32)  # the regions next to the first stone
    if quick:
        for i in range(n):
            if start[i] == opponent_colour(side):
                enemies_alive &= blocks[LIFE, blocks[GROUP, i]] > 0
        for d in range(degree[first]):
            near[d] = blocks[REGION, neighbours[first, d]]  # (-1 on a stone)
    for p in range(n):
        mask[p] = False
        if p == first or not on_board[p] or start[p] != EMPTY:
            continue
        if not quick:
            mask[p] = turn_changes_board(start, side, first, p, True, on_board, neighbours, degree)
        elif not enemies_alive:
            mask[p] = True
        else:
            mask[p] = is_listed(blocks[REGION, p], near, 6) and not adjacent(p, first, neighbours, degree)


@kernel
def finish_mask(board, mask, memo, s, pie, on_board, neighbours, degree):
    """The mask of the side to move, given the local mask ``describe`` left in ``mask``: exact
    where the local rule does not hold."""
    n = board.shape[0]
    side = s[TO_MOVE]
    cells = mask[:n]
    own = 0
    stones = 0
    for i in range(n):
        stones += board[i] != EMPTY
        own += board[i] == colour_of(side)
    if s[PENDING] >= 0:
        start = board.copy()
        start[s[PENDING]] = EMPTY
        second_stone_mask(start, side, s[PENDING], own == 1, memo, on_board, neighbours, degree, cells)
    elif pie == STRONG and s[FIRST_BLACK + side] == 0:
        first_stone_mask(board, side, own == 0, on_board, neighbours, degree, cells)
    elif s[REMOVAL_ON] == 0:
        if stones + 1 >= REMOVAL_FROM:  # this turn brings the fourth stone: it removes
            exact_single_mask(board, side, True, on_board, neighbours, degree, cells)
        else:
            for i in range(n):
                cells[i] = on_board[i] and board[i] == EMPTY
    elif s[ALL_ALIVE] == 0:
        exact_single_mask(board, side, True, on_board, neighbours, degree, cells)
    has_placement = False
    for i in range(n):
        if cells[i]:
            has_placement = True
            break
    mask[n] = swap_available(s, pie)
    mask[n + 1] = komi_spend_legal(s, pie, side, has_placement)
