"""A whole action, compiled: the turn logic the state class, the batched env and the playouts
share (:func:`act`, :func:`new_game`), the observation planes (:data:`PLANES`, :func:`observe`),
the layout of a game's scalar row and the Zobrist keys of the repetition draw."""
from __future__ import annotations

import numpy as np

from ...core.fields import (FLIP, HEAD, HEAD_BITS, TERMINAL, TO_MOVE, WINNER, Array, Fields, RowField,  # noqa: F401
                            Table, clear_row, head_code)
from ...core.game import Plane
from ...core.jit import kernel
from ...core.kernels import EMPTY, colour_of, hash_contains, hash_insert, opponent_colour, percent
from .rules import MAX_PRISON, first_stone_mask, second_stone_mask
from .structure import (MEMO_DTYPE, MEMO_VALID, arcs_round, capture_dead, label_structure, memo_size,
                        structure_after_stone, structure_view)
from .mask import analyse_structure


@kernel
def zobrist_hash(board, side, keys, side_key):
    h = np.uint64(0)
    for i in range(board.shape[0]):
        if board[i] != EMPTY:
            h ^= keys[i, board[i] - 1]
    if side == 1:
        h ^= side_key
    return h if h != 0 else np.uint64(1)  # 0 marks a free slot in the position table


@kernel
def asli_planes(board, owner, danger, mask, observer, legal_for_observer, own_prisoners,
                opponent_prisoners, ban, second_stone, out):
    """Fill the observation ``out`` (H, W, 14) for side ``observer`` (see PLANES)."""
    height, width = out.shape[0], out.shape[1]
    own = observer + 1
    opponent = 2 - observer  # a colour, and the owner code of its territories
    # bitwise, not ``and``: short-circuit branches on random boards mispredict
    for r in range(height):
        for c in range(width):
            i = r * width + c
            b = board[i]
            out[r, c, 0] = b == own
            out[r, c, 1] = b == opponent
            out[r, c, 2] = b == EMPTY
            out[r, c, 3] = 1
            out[r, c, 4] = owner[i] == own
            out[r, c, 5] = owner[i] == opponent
            out[r, c, 6] = (b == own) & danger[i]
            out[r, c, 7] = (b == opponent) & danger[i]
            out[r, c, 8] = legal_for_observer & (mask[i] != 0)
            out[r, c, 9] = own_prisoners
            out[r, c, 10] = opponent_prisoners
            out[r, c, 11] = ban
            out[r, c, 12] = second_stone
            out[r, c, 13] = observer


# --- a whole action, compiled: the turn logic shared by the state class and the batched env ------
# the row's head is every game's (core/fields.py)
PRISON_BLACK, PRISON_WHITE, PENDING, PENDING_MINIMAL, FIRST_BLACK, FIRST_WHITE, LAST_MINIMAL, \
    SEEN_COUNT = range(HEAD, HEAD + 8)
NUM_SCALARS = HEAD + 8

FIELDS = Fields(
    NUM_SCALARS,
    row=(RowField("prison", PRISON_BLACK, length=2, high=MAX_PRISON),
         RowField("pending", PENDING, low=-1, high=lambda g: g.num_cells - 1),
         RowField("pending_minimal", PENDING_MINIMAL, bool),
         RowField("first_turn_done", FIRST_BLACK, bool, length=2),
         RowField("last_minimal", LAST_MINIMAL, bool)),
    arrays=(Array("owner", np.int8, lambda g: (g.num_cells,)),  # who owns each empty point's territory
            Array("danger", np.bool_, lambda g: (g.num_cells,)),  # stones alive through one region only
            Array("memo", MEMO_DTYPE, lambda g: (memo_size(g.num_cells, g.geometry.neighbours.shape[1]),))),
    tables=(Table("seen", SEEN_COUNT),))  # every turn-boundary position (Zobrist hashes), for the repetition draw
ROLLOUT_TESTS = 6  # candidates a playout turn tests before it asks the exact mask
# A stone that may split its region: from this many cells (8x8) the flood of its region finds the
# parts sooner than labelling the board; below, labelling is sooner (the "a stone's structure" rows
# of benchmarks/diagnostics/asli_cost.py; docs/design/asli.md has the figures)
FLOOD_PARTS_FROM = 64


@kernel
def compute_mask(board, mask, owner, danger, s, memo, on_board, neighbours, degree):
    """Legal actions of the side to move (the derived planes come along), the board's structure
    labelled into ``memo``."""
    mask_from_structure(board, mask, owner, danger, s, label_structure(board, memo, on_board, neighbours, degree),
                        on_board, neighbours, degree)


@kernel(inline="always")
def mask_from_structure(board, mask, owner, danger, s, structure, on_board, neighbours, degree):
    """:func:`compute_mask` with the board's :func:`asli_structure` already labelled."""
    n = board.shape[0]
    side = s[TO_MOVE]
    cells = mask[:n]
    double = s[FIRST_BLACK + side] == 0
    ban = s[LAST_MINIMAL] == 1
    analyse_structure(board, side, ban, not double, structure, on_board, neighbours, degree, cells, owner, danger)
    if double:
        own = 0
        for i in range(n):
            own += board[i] == colour_of(side)
        if s[PENDING] >= 0:
            second_stone_mask(board, side, s[PENDING], ban, not ban and own == 1, on_board, neighbours, degree, cells)
        else:
            first_stone_mask(board, side, ban, not ban and own == 0, on_board, neighbours, degree, cells)
    mask[n] = s[PENDING] < 0 and s[PRISON_BLACK + 1 - side] > 0


@kernel(inline="always")
def close_turn(board, s, seen, side, minimal, placement, keys, side_key):
    """What ends every whole turn, in :func:`act` and in the playouts: the ban for the next turn
    (``minimal``: this turn was a minimal incursion), the turn passes, and the repetition rule: a
    placement that brings back a position of ``seen`` draws the game (returns True); otherwise the
    position is remembered."""
    s[LAST_MINIMAL] = minimal
    s[TO_MOVE] = 1 - side
    h = zobrist_hash(board, 1 - side, keys, side_key)
    if placement and hash_contains(seen, h):  # the position recurs: a draw
        s[TERMINAL] = 1
        s[WINNER] = -1
        return True
    if hash_insert(seen, h):
        s[SEEN_COUNT] += 1
    return False


@kernel(inline="always")
def _end_turn(board, mask, owner, danger, s, seen, side, minimal, placement, structure, keys, side_key, on_board,
              neighbours, degree):
    drawn = close_turn(board, s, seen, side, minimal, placement, keys, side_key)
    mask_from_structure(board, mask, owner, danger, s, structure, on_board, neighbours, degree)
    if drawn:
        return
    for i in range(mask.shape[0]):
        if mask[i]:
            return
    s[TERMINAL] = 1  # no legal action: the last to act wins
    s[WINNER] = side


OUT_PRISON = 1 << HEAD_BITS  # the bit of an act's outcome above the head: the prison changed


@kernel
def outcome(s, prison_moved):
    """An act's result in one int: the row's :func:`head_code`, and ``OUT_PRISON`` when stones
    moved into or out of the prison."""
    return head_code(s) + prison_moved * OUT_PRISON


@kernel
def current_structure(board, memo, on_board, neighbours, degree):
    """The structure of ``board``: the one kept in ``memo`` if it is valid, else labelled there."""
    if memo[MEMO_VALID] == 1:
        return structure_view(memo, board.shape[0], neighbours.shape[1])
    return label_structure(board, memo, on_board, neighbours, degree)


@kernel
def act(board, mask, owner, danger, s, seen, memo, action, keys, side_key, on_board, neighbours, degree):
    """Play one legal action (a placement, or ``remove_prisoner`` = ``n``); returns
    :func:`outcome` (so a Python caller reads no scalar back). ``seen`` must keep a free slot (the
    caller grows it). ``memo`` holds the board's structure (:func:`label_structure`), or is marked
    invalid; it is brought up to date."""
    n = board.shape[0]
    side = s[TO_MOVE]
    if action == n:  # take an enemy stone out of the prison: a whole turn, the board unchanged
        s[PRISON_BLACK + 1 - side] -= 1
        s[FIRST_BLACK + side] = 1
        _end_turn(board, mask, owner, danger, s, seen, side, False, False,
                  current_structure(board, memo, on_board, neighbours, degree), keys, side_key, on_board, neighbours,
                  degree)
        return outcome(s, True)
    incursion = owner[action] == opponent_colour(side)  # the territory's owner before the stone lands
    # the structure after the stone shows the dead enemy groups; it serves the next mask too
    # unless stones were captured. It follows from the one before, by a flood of p's region at most
    arcs = arcs_round(board, action)
    if n >= FLOOD_PARTS_FROM or arcs < 2:
        before = current_structure(board, memo, on_board, neighbours, degree)
        board[action] = colour_of(side)
        structure = structure_after_stone(before, memo, board, action, side, arcs, neighbours, degree)
    else:
        board[action] = colour_of(side)
        structure = label_structure(board, memo, on_board, neighbours, degree)
    groups, stones = capture_dead(board, opponent_colour(side), structure)
    if stones > 0:
        structure = label_structure(board, memo, on_board, neighbours, degree)
    s[PRISON_BLACK + 1 - side] += stones
    minimal = incursion and groups == 1
    if s[PENDING] < 0 and s[FIRST_BLACK + side] == 0:  # the first stone of a pair
        s[PENDING] = action
        s[PENDING_MINIMAL] = minimal
        mask_from_structure(board, mask, owner, danger, s, structure, on_board, neighbours, degree)
        return outcome(s, stones > 0)
    minimal = minimal or (s[PENDING] >= 0 and s[PENDING_MINIMAL] == 1)
    s[PENDING] = -1
    s[PENDING_MINIMAL] = 0
    s[FIRST_BLACK + side] = 1
    _end_turn(board, mask, owner, danger, s, seen, side, minimal, True, structure, keys, side_key, on_board,
              neighbours, degree)
    return outcome(s, stones > 0)


@kernel
def start_slots(s, komi):
    """Asli's own slots of a new game's row: no pending stone, ``komi`` black stones in the prison."""
    s[PENDING] = -1
    s[PRISON_BLACK] = komi


@kernel
def new_game(board, mask, owner, danger, s, seen, memo, komi, keys, side_key, on_board, neighbours, degree):
    """Reset one game: empty board, Black to move by player_0, ``komi`` black stones in the prison."""
    board[:] = EMPTY
    clear_row(s)
    start_slots(s, komi)
    seen[:] = 0
    hash_insert(seen, zobrist_hash(board, 0, keys, side_key))
    s[SEEN_COUNT] = 1
    compute_mask(board, mask, owner, danger, s, memo, on_board, neighbours, degree)


@kernel
def observe(board, mask, owner, danger, s, observer, legal, points, out):
    """The planes of side ``observer`` (see PLANES) into ``out``: its legal actions if ``legal``
    (``core.fields.may_move``)."""
    asli_planes(board, owner, danger, mask, observer, legal,
                percent(s[PRISON_BLACK + 1 - observer], points), percent(s[PRISON_BLACK + observer], points),
                s[LAST_MINIMAL], s[PENDING] >= 0, out)


PLANES = (
    Plane("own_stones", "stones of the observer"),
    Plane("opponent_stones", "stones of the opponent"),
    Plane("empty", "empty points"),
    Plane("on_board", "points of the board (all ones)"),
    Plane("own_territory", "empty points of territories the observer owns"),
    Plane("opponent_territory", "empty points of territories the opponent owns"),
    Plane("own_danger", "the observer's stones in groups alive through a single empty region"),
    Plane("opponent_danger", "the opponent's stones in groups alive through a single empty region"),
    Plane("legal", "the observer's legal placements (zeros when the observer is not to move)"),
    Plane("own_prisoners", "constant: enemy stones in the prison that the observer may remove, "
                           "round(100 * k / points) clipped to 100", 0, 100),
    Plane("opponent_prisoners", "constant: the observer's stones in the prison (the opponent may "
                                "remove them), round(100 * k / points) clipped to 100", 0, 100),
    Plane("ban", "constant: 1 if the last turn was a minimal incursion (the player to move may not "
                 "make one)"),
    Plane("second_stone", "constant: 1 when the next stone is the second of a double placement"),
    Plane("side", "constant: 0 if the observer plays Black, 1 if White"),
)

_ZOBRIST: dict = {}


def zobrist_keys(num_cells: int):
    """Fixed random keys per (point, colour) and for White to move (same on every machine)."""
    if num_cells not in _ZOBRIST:
        rng = np.random.default_rng(20261129 + num_cells)
        keys = rng.integers(1, 2**63, size=(num_cells, 2), dtype=np.uint64)
        side_key = np.uint64(rng.integers(1, 2**63, dtype=np.uint64))
        keys.setflags(write=False)
        _ZOBRIST[num_cells] = (keys, side_key)
    return _ZOBRIST[num_cells]

