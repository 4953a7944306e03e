"""What Linage's modules share: the kinds of region (who owns one: :func:`region_kind`), the cap
of the local searches, and the layout of ``memo``, the regions kept from move to move."""
from __future__ import annotations

import numpy as np

from ...core.jit import kernel

# region kinds per cell (derived)
NOT_EMPTY, FREE, VERTICAL_OWNS, HORIZONTAL_OWNS = 0, 1, 2, 3


# how many cells a local search may visit from a neighbour of a candidate before the exact
# low-link method decides instead (keeps the mask linear in the cells whatever the position)
SEARCH_CAP = 12


# The regions kept from move to move, in one ``MEMO_DTYPE`` array per game (``memo_size(n)``
# entries, n the cells), in blocks of n: the label of each empty cell's region (-1 on stones) | the
# horizontal line starts of each label | its vertical line starts | the cells whose legality a
# search decided | per such cell, the rows its searches depended on | and the columns (each span
# packed by ``pack_span``); then the number of labels in use and the number of such cells. Stones
# are never removed, so regions only split: labels are handed out in order and never exceed the
# cells.
H_STARTS, V_STARTS, RECHECK, ROWS, COLUMNS, BLOCKS = 1, 2, 3, 4, 5, 6
LABELS_USED, SEARCHED = 0, 1  # the two counts after the blocks (memo_counts)
# Narrow types (boards up to 25x25: a run is at most 25 cells, a memo entry a cell, a count of cells
# or a span): the memo and the runs are most of a game's memory, and a large batch's do not stay in
# cache.
MEMO_DTYPE = np.int16
RUNS_DTYPE = np.int8


@kernel
def memo_size(n):
    return BLOCKS * n + 2


@kernel(inline="always")
def memo_counts(memo, n):
    """The counts after the blocks of ``memo``, a view: ``[LABELS_USED]`` the labels in use,
    ``[SEARCHED]`` the cells a search decided (listed in the RECHECK block)."""
    return memo[BLOCKS * n:]


@kernel
def pack_span(low, high):
    """Rows (or columns) ``low..high`` (each 0..127) in one int16 entry."""
    return low | high << 8


@kernel
def in_span(span, x):
    return (span & 255) <= x <= (span >> 8)


@kernel
def region_kind(has_h, has_v):
    """The owner of a region from its lines: free with both kinds, else the player whose lines the
    other kind is not (a region with none goes to Vertical here; it counts for both in points)."""
    return FREE if has_h and has_v else VERTICAL_OWNS if not has_h else HORIZONTAL_OWNS
