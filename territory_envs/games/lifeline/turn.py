"""A whole action, compiled: the turn logic the state class, the batched env and the playouts
share (:func:`act`, :func:`new_game`, :func:`refresh`), and the observation planes
(:data:`PLANES`, :func:`observe`)."""
from __future__ import annotations

import numpy as np

from ...core.fields import FLIP, TO_MOVE, clear_row, head_code
from ...core.game import Plane
from ...core.jit import kernel
from ...core.kernels import EMPTY, colour_of, percent, store_eight
from .mask import finish_mask
from .row import ALL_ALIVE, FIRST_BLACK, KOMI_LEFT, PENDING, REMOVAL_ON, SWAP_USED
from .rules import (KOMI, REMOVAL_FROM, STRONG, WEAK, analyse, komi_spend_legal, last_to_place_wins, play_stone,
                    start_slots, swap_available)
from .structure import usual_turn


def _cell_words():
    """Planes 0-7 of a cell in each of its nine states, as little-endian words (byte k: plane k).
    A cell's state: 0 off the board; 1 empty, + 1 with a link of the observer's, + 2 if legal for
    the observer; 5 the observer's stone, + 1 alive; 7 the opponent's, + 1 alive. (A stone's cell
    has no link and is not legal, an empty cell is not alive, so the state gives every plane.)"""
    words = []
    for state in range(9):
        planes = [0] * 8
        planes[3] = state >= 1  # on the board
        if 1 <= state <= 4:
            planes[2], planes[6], planes[7] = 1, (state - 1) & 1, (state - 1) >> 1
        elif state >= 5:
            planes[0 if state <= 6 else 1] = 1
            planes[4 if state <= 6 else 5] = (state - 5) & 1 if state <= 6 else state - 7
        words.append(sum(int(v) << (8 * k) for k, v in enumerate(planes)))
    return tuple(words)


CELL_WORDS = _cell_words()


@kernel
def lifeline_planes(board, alive_cell, links, on_board, mask, observer, legal_for_observer,
                    second_stone, swap, pie, removal_on, komi_plane, out):
    """Fill the observation ``out`` (H, W, 15, C-contiguous) for side ``observer`` (see PLANES);
    ``pie`` is the index in ``row.PIES``. Each cell's planes are two stores of eight bytes: planes 0-7 by
    the cell's state (``CELL_WORDS``), then planes 7-14, the constants (plane 7 twice, so that no
    store runs past the cell); branch-free, since branches on random boards mispredict."""
    own = observer + 1
    opponent = 2 - observer
    flat = out.reshape(-1)
    constants = np.uint64(0)  # planes 8-14, in bytes 1-7
    for k, value in enumerate((np.int64(second_stone), np.int64(swap), np.int64(pie == WEAK), np.int64(pie == KOMI),
                               np.int64(removal_on), np.int64(komi_plane), np.int64(observer))):
        constants |= np.uint64(value) << np.uint64(8 * (k + 1))
    for i in range(out.shape[0] * out.shape[1]):
        b = board[i]
        alive = np.int64(alive_cell[i])
        legal = np.int64(legal_for_observer & (mask[i] != 0))
        state = (np.int64(on_board[i] & (b == EMPTY)) * (1 + ((links[i] >> observer) & 1) + 2 * legal)
                 + np.int64(b == own) * (5 + alive) + np.int64(b == opponent) * (7 + alive))
        store_eight(flat, 15 * i, CELL_WORDS[state])
        store_eight(flat, 15 * i + 7, constants | np.uint64(legal))


# --- a whole action, compiled: the turn logic shared by the state class and the batched env ------
@kernel
def new_game(board, mask, alive_cell, links, memo, s, pie, komi, on_board, neighbours, degree):
    """Reset one game: empty board, Black to move by player_0, the pie's starting scalars, the
    first mask."""
    board[:] = EMPTY
    clear_row(s)
    start_slots(s, pie, komi)
    refresh(board, mask, alive_cell, links, memo, s, pie, on_board, neighbours, degree)


@kernel
def refresh(board, mask, alive_cell, links, memo, s, pie, on_board, neighbours, degree):
    """Derived facts and the legal mask of the side to move, from the board and the scalars."""
    n = board.shape[0]
    all_alive, _ = analyse(board, s[TO_MOVE], on_board, neighbours, degree, alive_cell, links, mask[:n], memo)
    s[ALL_ALIVE] = all_alive
    finish_mask(board, mask, memo, s, pie, on_board, neighbours, degree)


@kernel
def _end_turn(mask, s, side):
    for i in range(mask.shape[0]):
        if mask[i]:
            return
    last_to_place_wins(s, side)


@kernel
def act(board, mask, alive_cell, links, memo, s, action, pie, on_board, neighbours, degree):
    """Play one legal action: a placement, ``swap`` (``n``) or ``spend_komi`` (``n + 1``). Returns
    the row's :func:`head_code`."""
    _play(board, mask, alive_cell, links, memo, s, action, pie, on_board, neighbours, degree)
    return head_code(s)


@kernel
def _play(board, mask, alive_cell, links, memo, s, action, pie, on_board, neighbours, degree):
    n = board.shape[0]
    side = s[TO_MOVE]
    if action == n:  # swap: the agents exchange sides, White's first turn is still to play
        s[FLIP] ^= 1
        s[SWAP_USED] = 1
        finish_mask(board, mask, memo, s, pie, on_board, neighbours, degree)
        return
    if action == n + 1:  # spend a komi point instead of placing
        s[KOMI_LEFT] -= 1
        s[TO_MOVE] = 1 - side
        refresh(board, mask, alive_cell, links, memo, s, pie, on_board, neighbours, degree)
        _end_turn(mask, s, side)
        return
    usual = s[PENDING] < 0 and s[REMOVAL_ON] == 1 and s[ALL_ALIVE] == 1  # see usual_turn
    if s[PENDING] >= 0:
        s[PENDING] = -1
    elif pie == STRONG and s[FIRST_BLACK + side] == 0:  # the first stone of a pair
        board[action] = colour_of(side)
        s[PENDING] = action
        refresh(board, mask, alive_cell, links, memo, s, pie, on_board, neighbours, degree)
        return
    elif s[REMOVAL_ON] == 0:
        stones = 0
        for i in range(n):
            stones += board[i] != EMPTY
        if stones + 1 >= REMOVAL_FROM:  # the fourth stone: removal starts and stays on
            s[REMOVAL_ON] = 1
    if usual:
        legal, all_alive = usual_turn(board, action, side, memo, links, alive_cell, mask[:n], neighbours, degree)
    else:  # the whole position
        all_alive, legal = play_stone(board, side, action, s[REMOVAL_ON] == 1, on_board, neighbours, degree,
                                      alive_cell, links, mask[:n], memo)
    s[ALL_ALIVE] = all_alive
    s[FIRST_BLACK + side] = 1
    opponent = 1 - side
    s[TO_MOVE] = opponent
    if all_alive and s[REMOVAL_ON] == 1 and s[FIRST_BLACK + opponent] == 1:
        # the usual case: the local mask is exact, no swap; only a komi spend to settle
        mask[n] = 0
        spend = komi_spend_legal(s, pie, opponent, legal > 0)
        mask[n + 1] = spend
        if legal == 0 and not spend:
            last_to_place_wins(s, side)
        return
    finish_mask(board, mask, memo, s, pie, on_board, neighbours, degree)
    _end_turn(mask, s, side)


@kernel
def observe(board, mask, alive_cell, links, s, observer, legal, pie, points, on_board, out):
    """The planes of side ``observer`` (see PLANES) into ``out``: its legal actions if ``legal``
    (``core.fields.may_move``)."""
    lifeline_planes(board, alive_cell, links, on_board, mask, observer, legal, s[PENDING] >= 0, swap_available(s, pie),
                    pie, s[REMOVAL_ON], percent(s[KOMI_LEFT], points), out)


PLANES = (
    Plane("own_stones", "stones of the observer"),
    Plane("opponent_stones", "stones of the opponent"),
    Plane("empty", "empty cells of the board"),
    Plane("on_board", "cells of the hexagon inside the square grid"),
    Plane("own_alive", "the observer's stones in living groups"),
    Plane("opponent_alive", "the opponent's stones in living groups"),
    Plane("own_links", "empty cells next to two or more of the observer's groups"),
    Plane("legal", "the observer's legal placements (zeros when the observer is not to move)"),
    Plane("second_stone", "constant: 1 when the next stone is the second of a double placement"),
    Plane("swap_available", "constant: 1 when the player to move may swap now"),
    Plane("pie_weak", "constant: 1 under the weak pie"),
    Plane("pie_komi", "constant: 1 under the komi pie"),
    Plane("removal_on", "constant: 1 once dead groups are removed (always under the strong pie)"),
    Plane("komi_left", "constant: White's komi points left, round(100 * k / cells) clipped to 100",
          0, 100),
    Plane("side", "constant: 0 if the observer plays Black, 1 if White"),
)

