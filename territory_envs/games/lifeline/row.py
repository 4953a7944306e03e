"""The layout of a Lifeline game's scalar row ``s`` (its head is every game's,
:mod:`territory_envs.core.fields`), the declaration of the state's fields (:data:`FIELDS`), and the
rules that read or write only the row: the pies, the swap, the komi spend, the end without a legal
action."""
from __future__ import annotations

import numpy as np
from numba import njit

from ...core.fields import FLIP, HEAD, TERMINAL, TO_MOVE, WINNER, Array, Fields, RowField  # noqa: F401
from .structure import MEMO_DTYPE, memo_size

PIES = ("strong", "weak", "komi")  # the ``pie`` option; its index is the ``pie`` of the kernels
STRONG, WEAK, KOMI = range(3)
REMOVAL_FROM = 4  # under the weak and komi pies, dead groups are removed from the fourth stone on

# A game's scalars live in one int32 row (its head is every game's, core/fields.py), so one
# function serves a single state and a batch.
PENDING, FIRST_BLACK, FIRST_WHITE, SWAP_USED, REMOVAL_ON, KOMI_LEFT, ALL_ALIVE = range(HEAD, HEAD + 7)
NUM_SCALARS = HEAD + 7

FIELDS = Fields(
    NUM_SCALARS,
    row=(RowField("pending", PENDING, low=-1, high=lambda g: g.num_cells - 1),
         RowField("first_turn_done", FIRST_BLACK, bool, length=2),
         RowField("swap_used", SWAP_USED, bool),
         RowField("removal_on", REMOVAL_ON, bool),
         RowField("komi_left", KOMI_LEFT, high=lambda g: g.options["komi"] if g.pie_index == KOMI else 0)),
    arrays=(Array("alive_cell", np.bool_, lambda g: (g.num_cells,)),  # stones in living groups
            Array("links", np.int8, lambda g: (g.num_cells,)),  # bit k: the cell joins two groups of side k
            Array("memo", MEMO_DTYPE, lambda g: (memo_size(g.num_cells),))))  # the structure kept (structure.py)


@njit(cache=True)
def start_slots(s, pie, komi):
    """Lifeline's own slots of a new game's row: no pending stone, removal on under the strong
    pie, the komi points under the komi pie."""
    s[PENDING] = -1
    s[REMOVAL_ON] = pie == STRONG
    s[KOMI_LEFT] = komi if pie == KOMI else 0


@njit(cache=True)
def swap_available(s, pie):
    """May the player to move swap now (the strong and weak pies, White's first turn, no swap yet)?"""
    return pie != KOMI and s[TO_MOVE] == 1 and s[SWAP_USED] == 0 and s[FIRST_WHITE] == 0 and s[PENDING] < 0


@njit(cache=True, inline='always')
def komi_spend_legal(s, pie, side, has_placement):
    """May ``side``, to move, spend a komi point instead of placing (the komi pie: White, with
    points left, once removal is on, not in the middle of a double placement, and only while it has
    a placement it could make instead)?"""
    return (pie == KOMI and side == 1 and s[REMOVAL_ON] == 1 and s[KOMI_LEFT] > 0 and has_placement
            and s[PENDING] < 0)


@njit(cache=True, inline='always')
def last_to_place_wins(s, side):
    """The player to act has no legal action: the game ends and ``side``, the last to place, wins."""
    s[TERMINAL] = 1
    s[WINNER] = side
