"""The rules of Linage, as ``docs/rules/linage.txt`` and ``docs/rulings.md`` read them.

Vertical and Horizontal share a pool of neutral stones on a square board; Vertical moves first.

* A *region* is a maximal orthogonally connected set of empty points. A *line* is ``line_length``
  (default 3) contiguous empty points in one row (horizontal line) or one column (vertical line).
* A region with no horizontal line is owned by Vertical, one with no vertical line by Horizontal;
  a region with both is *free*.
* A placement is legal iff the point is empty, lies in a free region, and afterwards every region
  still contains a line. Passing (action ``H*W``) is always legal.
* Two passes in succession end the game, and so does the moment no free region remains.
* Score: Vertical gets the empty points of regions with no horizontal line; Horizontal those of
  regions with no vertical line, plus ``komi``. Stones count for nobody. Equal scores are a draw.

The legal mask by a local rule, linear in the cells. A stone on ``p`` touches only p's region R,
and splits it into the components of ``R - p``, each holding a neighbour of ``p``. A line avoids
``p`` or dies, so ``p`` is legal iff from every empty neighbour of ``p`` a line avoiding ``p`` can be
reached within ``R - p``. Usually the neighbour itself lies on one (run lengths in its row and
column say so at once); otherwise a breadth-first search from it looks for one, visiting at most
``SEARCH_CAP`` cells (it meets a line, or the component ends: ``p`` is illegal).

When a search gives up, the low-link method decides every candidate of the position at once
(:func:`lowlink_legal`). One depth-first pass per free region (Tarjan's low-links) gives, for every
``p``, the components of ``R - p``: the subtrees of the children ``c`` with ``low[c] >= disc[p]``,
and the rest of the region when ``p`` is not the root. Count each line once, at its first cell. The
lines of a component are the line starts in it (subtree sums) minus the at most
``2 * (line_length - 1)`` lines through ``p`` that start in it (found by their DFS discovery
interval). ``p`` is legal iff every component keeps at least one line. In 20,000 positions of random
9x9 games no search gave up (about 16 searches of a few cells per position).

Play is incremental (:func:`place_stone`). The run lengths and safe bits (:func:`line_facts`) are
kept from move to move: a stone changes them only in its row and column (:func:`place_line_facts`).
The regions are kept too (``memo``: a label per cell, line starts per region). A stone changes only
its own region, which was free: if its empty neighbours are joined round it, the region cannot
split and only loses the lines through the stone; otherwise the parts it leaves are flooded and get
their owners and points (:func:`place_region_facts`). Legality is decided again only where it can
change: next to the stone and to cells whose safe bits changed, and at cells a search decided
whose searched box the stone falls in. A position given whole (a new game, a loaded state) is
analysed in full (:func:`line_facts`, then :func:`region_facts`); the tests compare both ways at
every move.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..core.batch import after_action, final_viewer, record_action, skip_game
from ..core.fields import FLIP, HEAD, TERMINAL, TO_MOVE, WINNER, Array, Fields, RowField, head_code
from ..core.game import Game, GameState, Plane
from ..core.geometry import square
from ..core.kernels import (EMPTY, any_per_component, dfs_lowlink, flood_equal, label_components, mark_line_starts,
                             random_set_index, run_lengths, winner_by_score, winner_player)
from ..core.options import check_int, check_number

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
# Narrow types (boards up to 25x25: a run is at most 25 cells, a memo entry a cell, a count of cells
# or a span): the memo and the runs are most of a game's memory, and a large batch's do not stay in
# cache.
MEMO_DTYPE = np.int16
RUNS_DTYPE = np.int8


@njit(cache=True)
def memo_size(n):
    return BLOCKS * n + 2


@njit(cache=True)
def pack_span(low, high):
    """Rows (or columns) ``low..high`` (each 0..127) in one int16 entry."""
    return low | high << 8


@njit(cache=True)
def in_span(span, x):
    return (span & 255) <= x <= (span >> 8)


@njit(cache=True)
def region_kind(has_h, has_v):
    """The owner of a region from its lines: free with both kinds, else the player whose lines the
    other kind is not (a region with none goes to Vertical here; it counts for both in points)."""
    return FREE if has_h and has_v else VERTICAL_OWNS if not has_h else HORIZONTAL_OWNS


@njit(cache=True)
def line_facts(board, height, width, line_length, runs, safe, on_h, on_v, planes=True):
    """The lines of a position: ``runs`` (4, N), the empty cells running from each cell to the
    left, right, up and down (:func:`run_lengths`); ``safe``; ``on_h``/``on_v`` with ``planes``."""
    run_lengths(board == EMPTY, height, width, runs[0], runs[1], runs[2], runs[3])
    for x in range(board.shape[0]):
        cell_line_facts(x, board, line_length, runs, safe, on_h, on_v, planes)


@njit(cache=True)
def cell_line_facts(x, board, line_length, runs, safe, on_h, on_v, planes):
    """``safe[x]``, bit d: x (empty) still lies on a line once a stone is on its neighbour in
    direction d (0 left, 1 right, 2 up, 3 down); all bits for a stone, which needs no search. And
    with ``planes``, whether x lies on a horizontal / vertical line."""
    left, right, up, down = runs[0, x], runs[1, x], runs[2, x], runs[3, x]
    across_h = left + right - 1 >= line_length  # x's run is a line
    across_v = up + down - 1 >= line_length
    if planes:
        on_h[x] = across_h
        on_v[x] = across_v
    safe[x] = 15 if board[x] != EMPTY else (
        (right >= line_length or across_v) | (left >= line_length or across_v) << 1
        | (down >= line_length or across_h) << 2 | (up >= line_length or across_h) << 3)


@njit(cache=True)
def lines_through(before, after, line_length):
    """How many lines of a run pass through a cell with ``before`` run cells up to it and ``after``
    from it (both counting the cell): the windows of ``line_length`` holding it."""
    return max(0, min(before, line_length) + min(after, line_length) - line_length)


@njit(cache=True)
def place_line_facts(board, p, height, width, line_length, neighbours, degree, runs, safe, on_h, on_v, planes,
                     marked, todo):
    """:func:`line_facts` after a stone lands on ``p`` (already on ``board``), from those before it:
    only the runs through ``p`` change, so only p's row and column are visited. The empty neighbours
    of ``p`` and of every cell whose safe bits changed go into ``todo`` (once each, flagged in
    ``marked``): only their quick legality test can change. Returns how many."""
    count = mark_neighbours(p, board, neighbours, degree, marked, todo, 0)
    row = p // width
    col = p - row * width
    for direction in range(4):  # left, right, up, down from p: the runs that p now ends
        if direction == 0:
            step, facing, cells = -1, 1, col
        elif direction == 1:
            step, facing, cells = 1, 0, width - 1 - col
        elif direction == 2:
            step, facing, cells = -width, 3, row
        else:
            step, facing, cells = width, 2, height - 1 - row
        x = p
        for k in range(1, cells + 1):
            x += step
            if board[x] != EMPTY:
                break
            runs[facing, x] = k  # x's run towards p now stops before p
            before = safe[x]
            cell_line_facts(x, board, line_length, runs, safe, on_h, on_v, planes)
            if safe[x] != before:
                count = mark_neighbours(x, board, neighbours, degree, marked, todo, count)
    for r in range(4):
        runs[r, p] = 0
    cell_line_facts(p, board, line_length, runs, safe, on_h, on_v, planes)
    return count


@njit(cache=True)
def mark_neighbours(x, board, neighbours, degree, marked, todo, count):
    """Append x's empty neighbours not yet in ``todo`` to it; returns the new count."""
    for d in range(degree[x]):
        y = neighbours[x, d]
        if board[y] == EMPTY and not marked[y]:
            marked[y] = True
            todo[count] = y
            count += 1
    return count


@njit(cache=True)
def region_facts(board, height, width, line_length, neighbours, degree, runs, safe, kind, legal, memo,
                 search_cap=SEARCH_CAP):
    """A whole position's analysis after :func:`line_facts`: regions (into ``memo``), their
    owners, the points and the legal placements; returns ``(free_regions, vertical_points,
    horizontal_points)``."""
    n = board.shape[0]
    right, down = runs[1], runs[3]
    labels, count = label_components(board == EMPTY, neighbours, degree)
    h_starts = memo[H_STARTS * n:(H_STARTS + 1) * n]
    v_starts = memo[V_STARTS * n:(V_STARTS + 1) * n]
    h_starts[:] = 0
    v_starts[:] = 0
    for i in range(n):
        k = labels[i]
        memo[i] = k
        if k >= 0:
            h_starts[k] += right[i] >= line_length  # a horizontal line starts at i
            v_starts[k] += down[i] >= line_length
    memo[BLOCKS * n] = count
    free_regions = 0
    for k in range(count):
        free_regions += h_starts[k] > 0 and v_starts[k] > 0
    vertical_points = 0
    horizontal_points = 0
    for i in range(n):
        k = labels[i]
        if k < 0:
            kind[i] = NOT_EMPTY
            continue
        has_h = h_starts[k] > 0
        has_v = v_starts[k] > 0
        kind[i] = region_kind(has_h, has_v)
        # literal scoring: a region with no line at all would count for both (the rules never
        # let one arise: the empty board has lines and every placement keeps one per region)
        vertical_points += not has_h
        horizontal_points += not has_v
    memo[BLOCKS * n + 1] = decide_legal(np.arange(n), n, board, height, width, line_length, neighbours, degree,
                                        runs, safe, kind, legal, memo, 0, search_cap)
    return free_regions, vertical_points, horizontal_points


@njit(cache=True)
def place_stone(board, p, height, width, line_length, neighbours, degree, runs, safe, on_h, on_v, kind, legal,
                memo, free_regions, vertical_points, horizontal_points, planes=True):
    """A legal stone on ``p``, and every derived fact brought up to date from those before it, in
    one call (one dispatch from Python): the lines (:func:`place_line_facts`), p's region
    (:func:`place_region_facts`), and the legality of the cells whose answer can have changed:
    those ``place_line_facts`` lists and those a search decided last time (the safe bits of every
    other legal cell are as they were; an illegal cell stays illegal, as a stone only takes cells
    and lines away, unless p was the pocket that made it so, and p's neighbours are listed). A
    cell a search decided is decided again only if p lies in the box of rows and columns its
    searches went through, widened by ``line_length - 1``: only there can a stone break the path or
    the line they found. Returns the new ``(free_regions, vertical_points, horizontal_points)``.""" 
    n = board.shape[0]
    lost_h = lines_through(runs[0, p], runs[1, p], line_length)
    lost_v = lines_through(runs[2, p], runs[3, p], line_length)
    board[p] = 1
    marked = np.zeros(n, dtype=np.bool_)
    todo = np.empty(n, dtype=np.int32)
    count = place_line_facts(board, p, height, width, line_length, neighbours, degree, runs, safe, on_h, on_v,
                             planes, marked, todo)
    free_regions, vertical_points, horizontal_points = place_region_facts(
        board, p, height, width, line_length, neighbours, degree, runs, kind, legal, memo, lost_h, lost_v,
        free_regions, vertical_points, horizontal_points)
    recheck = memo[RECHECK * n:(RECHECK + 1) * n]
    row = p // width
    col = p - row * width
    kept = 0
    for j in range(memo[BLOCKS * n + 1]):
        c = recheck[j]
        if marked[c] or kind[c] != FREE:  # decided below, or no longer in a free region (so illegal)
            continue
        if in_span(memo[ROWS * n + c], row) and in_span(memo[COLUMNS * n + c], col):
            marked[c] = True
            todo[count] = c
            count += 1
        else:
            recheck[kept] = c  # its searches stand
            kept += 1
    memo[BLOCKS * n + 1] = decide_legal(todo, count, board, height, width, line_length, neighbours, degree, runs,
                                        safe, kind, legal, memo, kept)
    return free_regions, vertical_points, horizontal_points


@njit(cache=True)
def may_split(board, p, height, width):
    """Can a stone on ``p`` split its region? Not when p's empty neighbours are joined around it,
    each pair of consecutive ones through the empty diagonal cell between them: then they stay in
    one region whatever lies further away. Counts the arcs of empty neighbours round p's ring."""
    row = p // width
    col = p - row * width
    north = row > 0 and board[p - width] == EMPTY
    east = col + 1 < width and board[p + 1] == EMPTY
    south = row + 1 < height and board[p + width] == EMPTY
    west = col > 0 and board[p - 1] == EMPTY
    north_east = north and east and board[p - width + 1] == EMPTY
    south_east = south and east and board[p + width + 1] == EMPTY
    south_west = south and west and board[p + width - 1] == EMPTY
    north_west = north and west and board[p - width - 1] == EMPTY
    arcs = ((north and not north_west) + (east and not north_east) + (south and not south_east)
            + (west and not south_west))
    return arcs >= 2


@njit(cache=True)
def place_region_facts(board, p, height, width, line_length, neighbours, degree, runs, kind, legal, memo, lost_h,
                       lost_v, free_regions, vertical_points, horizontal_points):
    """The regions after a legal stone on ``p`` (on ``board``, its :func:`place_line_facts` done;
    ``lost_h``/``lost_v``: the lines through p), from those before it: only p's region R, which
    was free, changes. If R cannot split (:func:`may_split`), its line counts drop by the lines
    through p, and while it keeps both kinds nothing else changes. Otherwise the parts R leaves are
    flooded from p's neighbours (the first keeps R's label) and get their line counts and owners;
    a part no longer free counts its points, and none of its cells is legal. Every other region
    keeps its own. Returns the new ``(free_regions, vertical_points, horizontal_points)``."""
    n = board.shape[0]
    right, down = runs[1], runs[3]
    label = memo[p]
    memo[p] = -1
    kind[p] = NOT_EMPTY
    legal[p] = False
    if not may_split(board, p, height, width):
        h = memo[H_STARTS * n + label] - lost_h
        v = memo[V_STARTS * n + label] - lost_v
        memo[H_STARTS * n + label] = h
        memo[V_STARTS * n + label] = v
        if h > 0 and v > 0:
            return free_regions, vertical_points, horizontal_points
    free_regions -= 1
    cells = np.empty(n, dtype=np.int32)  # the parts, one after the other
    part_of = np.full(n, -1, dtype=np.int32)
    total = 0
    parts = 0
    for d in range(degree[p]):
        start = neighbours[p, d]
        if board[start] != EMPTY or part_of[start] >= 0:
            continue
        first = total
        total = flood_equal(board, start, parts, part_of, cells, total, neighbours, degree)
        parts += 1
        if parts == 1:
            part_label = label
        else:
            part_label = memo[BLOCKS * n]
            memo[BLOCKS * n] += 1
        h = 0
        v = 0
        for j in range(first, total):
            c = cells[j]
            memo[c] = part_label
            h += right[c] >= line_length  # a horizontal line starts there
            v += down[c] >= line_length
        memo[H_STARTS * n + part_label] = h
        memo[V_STARTS * n + part_label] = v
        part = region_kind(h > 0, v > 0)
        if part == FREE:
            free_regions += 1
            continue
        for j in range(first, total):
            kind[cells[j]] = part
            legal[cells[j]] = False
        vertical_points += (total - first) * (h == 0)  # as region_facts: a part with no line counts for both
        horizontal_points += (total - first) * (v == 0)
    return free_regions, vertical_points, horizontal_points


@njit(cache=True)
def decide_legal(cells, count, board, height, width, line_length, neighbours, degree, runs, safe, kind, legal,
                 memo, searched, search_cap=SEARCH_CAP):
    """``legal[p]`` for the cells ``p`` of ``cells[:count]``: in a free region, and the safe bits,
    else local searches, else (once, if a search gives up) the low-links say so (module docstring).
    The cells found legal other than by their safe bits are listed in ``memo`` after its first
    ``searched``, with the box their searches went through (the whole board for low-links);
    returns the new length of the list. One loop with its tests inline: moved into helpers, they
    cost a third more."""
    n = board.shape[0]
    reach = line_length  # the box: the cells searched and p's neighbours, widened by line_length - 1
    left, right, up, down = runs[0], runs[1], runs[2], runs[3]
    exact = np.empty(0, dtype=np.bool_)  # the low-link answers, made the first time a search gives up
    seen = np.zeros(n, dtype=np.int32)  # stamp per cell: the search that last visited it
    queue = np.empty(max(search_cap, 1), dtype=np.int32)
    cols = np.empty(max(search_cap, 1), dtype=np.int32)
    stamp = 0
    for j in range(count):
        p = cells[j]
        legal[p] = False
        if kind[p] != FREE:
            continue
        c = p % width
        # the neighbours that a quick look cannot settle (safe bits seen from p's side)
        if ((c + 1 == width or safe[p + 1] & 1) and (c == 0 or safe[p - 1] & 2)
                and (p + width >= n or safe[p + width] & 4) and (p < width or safe[p - width] & 8)):
            legal[p] = True
            continue
        r = p // width
        top, bottom, west, east = r - reach, r + reach, c - reach, c + reach
        verdict = 1
        for d in range(degree[p]):
            nb = neighbours[p, d]
            if board[nb] != EMPTY or on_line_without(nb, c + (nb - p if -1 <= nb - p <= 1 else 0), p, c, width,
                                                     line_length, left, right, up, down):
                continue
            stamp += 1
            verdict = search_line(nb, p, c, stamp, seen, queue, cols, search_cap, board, width, line_length,
                                  neighbours, degree, left, right, up, down)
            if verdict < 1:
                break
            for k in range(verdict):
                top = min(top, queue[k] // width - reach + 1)
                bottom = max(bottom, queue[k] // width + reach - 1)
                west = min(west, cols[k] - reach + 1)
                east = max(east, cols[k] + reach - 1)
        if verdict == -1:
            if exact.shape[0] == 0:
                exact = np.zeros(n, dtype=np.bool_)
                lowlink_legal(board == EMPTY, kind, height, width, line_length, neighbours, degree, exact)
            verdict = exact[p]
            top, bottom, west, east = 0, height - 1, 0, width - 1
        if verdict >= 1:
            legal[p] = True
            memo[RECHECK * n + searched] = p
            memo[ROWS * n + p] = pack_span(max(top, 0), min(bottom, height - 1))
            memo[COLUMNS * n + p] = pack_span(max(west, 0), min(east, width - 1))
            searched += 1
    return searched


@njit(cache=True)
def on_line_without(x, x_col, p, p_col, width, length, left, right, up, down):
    """Does empty cell ``x`` (in column ``x_col``) lie on a line once a stone is on ``p`` (in
    column ``p_col``)? Run lengths as :func:`run_lengths` gives them for the board without that
    stone. Flat indices and columns only, and no branch: a branchy body here made numba keep
    reference counts of the arrays in the search loop, ten times slower."""
    cut_h = (x - left[x] < p) & (p < x + right[x])  # p lies in x's horizontal run (within x's row)
    cut_v = (p_col == x_col) & (x - up[x] * width < p) & (p < x + down[x] * width)
    after = p > x  # x keeps the side of its run before p
    along_h = (left[p] - 1) * after + (right[p] - 1) * (1 - after) if cut_h else left[x] + right[x] - 1
    along_v = (up[p] - 1) * after + (down[p] - 1) * (1 - after) if cut_v else up[x] + down[x] - 1
    return (along_h >= length) | (along_v >= length)


@njit(cache=True)
def search_line(start, p, p_col, stamp, seen, queue, cols, cap, board, width, length, neighbours, degree, left,
                right, up, down):
    """Breadth-first from ``start`` (a neighbour of ``p``) through the empty cells other than ``p``,
    looking for a cell on a line (a stone on ``p``): found, the number of cells queued (at least 1;
    they are ``queue[:tail]``), 0 the component has none (the stone is illegal), -1 more than
    ``cap`` cells visited without an answer. ``queue`` and ``cols`` (the queued cells' columns,
    followed along the steps) hold ``cap`` entries."""
    if cap == 0:
        return -1
    seen[start] = stamp
    queue[0] = start
    cols[0] = p_col + (start - p if -1 <= start - p <= 1 else 0)
    head, tail = 0, 1
    while head < tail:
        x = queue[head]
        x_col = cols[head]
        head += 1
        if on_line_without(x, x_col, p, p_col, width, length, left, right, up, down):
            return tail
        for d in range(degree[x]):
            y = neighbours[x, d]
            if board[y] == EMPTY and y != p and seen[y] != stamp:
                if tail == cap:
                    return -1
                seen[y] = stamp
                queue[tail] = y
                cols[tail] = x_col + (y - x if -1 <= y - x <= 1 else 0)
                tail += 1
    return 0


@njit(cache=True)
def lowlink_legal(empty, kind, height, width, line_length, neighbours, degree, legal):
    """The legal cells of the free regions by low-links, linear in the cells whatever the
    position (the fallback of :func:`region_facts`' local searches; see the module docstring)."""
    n = empty.shape[0]
    h_start = np.empty(n, dtype=np.bool_)
    v_start = np.empty(n, dtype=np.bool_)
    mark_line_starts(empty, height, width, line_length, h_start, v_start)
    free = np.zeros(n, dtype=np.bool_)
    for i in range(n):
        free[i] = kind[i] == FREE
    disc, low, parent, size, order = dfs_lowlink(free, neighbours, degree)
    clock = order.shape[0]
    rep = np.zeros(n, dtype=np.int32)  # lines starting at each cell (each line counted once)
    sub = np.empty(n, dtype=np.int32)  # lines starting in each DFS subtree
    for t in range(clock):
        v = order[t]
        rep[v] = h_start[v] + v_start[v]
        sub[v] = rep[v]
    for t in range(clock - 1, -1, -1):  # children before parents
        v = order[t]
        if parent[v] >= 0:
            sub[parent[v]] += sub[v]
    part_root = np.empty(4, dtype=np.int32)
    part_lines = np.empty(4, dtype=np.int32)
    total = 0
    for t in range(clock):  # regions in turn, each from its root
        p = order[t]
        if parent[p] < 0:
            total = sub[p]  # the lines of p's region
        parts = 0
        rest = total - rep[p]
        for d in range(degree[p]):
            c = neighbours[p, d]
            if parent[c] == p and low[c] >= disc[p]:  # c's subtree is cut off by a stone on p
                part_root[parts] = c
                part_lines[parts] = sub[c]
                rest -= sub[c]
                parts += 1
        r, col = p // width, p % width
        for direction in range(2):
            step = 1 if direction == 0 else width
            starts = h_start if direction == 0 else v_start
            for j in range(1, line_length):
                if (direction == 0 and col - j < 0) or (direction == 1 and r - j < 0):
                    break
                s = p - j * step
                if not starts[s]:
                    continue
                # the line s .. s + (length-1)*step passes through p: it is lost to s's component
                found = False
                for k in range(parts):
                    c = part_root[k]
                    if disc[c] <= disc[s] < disc[c] + size[c]:
                        part_lines[k] -= 1
                        found = True
                        break
                if not found:
                    rest -= 1
        ok = parent[p] < 0 or rest >= 1
        for k in range(parts):
            if part_lines[k] < 1:
                ok = False
        legal[p] = ok


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
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
        s[WINNER] = winner_by_score(s[VERTICAL_POINTS], s[HORIZONTAL_POINTS] + komi)
    return head_code(s)


class LinageGame(Game):
    """Linage with fixed options: ``board_size`` (3..25, default 9), ``line_length`` (2..5 and at
    most the board size, default 3), ``komi`` (any number, default 0.5, added to Horizontal's
    score), ``max_moves``."""

    name = "linage"
    sides = ("vertical", "horizontal")
    legend = ("# a stone (the stones are shared, of no side), . an empty point. A side's score, shown all game, "
              "counts the points of the regions it owns (a region without a horizontal line is vertical's, one "
              "without a vertical line horizontal's), komi added to horizontal's. The game ends after two passes "
              "in a row or when no region is free; the higher score wins.")
    special_actions = ("pass",)
    option_defaults = {"board_size": 9, "line_length": 3, "komi": 0.5}
    planes = PLANES

    def _validate(self, o):
        o["board_size"] = check_int("board_size", o["board_size"], 3, 25)
        o["line_length"] = check_int("line_length", o["line_length"], 2, min(5, o["board_size"]))
        o["komi"] = check_number("komi", o["komi"], low=-1000, high=1000)
        points = o["board_size"] ** 2
        self.komi_planes = tuple(max(-100, min(100, round(100 * k / points))) for k in (-o["komi"], o["komi"]))
        geometry = square(o["board_size"])
        # the geometry arguments of linage_act and linage_analyse, in their order
        self.geo_args = (geometry.height, geometry.width, o["line_length"], geometry.neighbours, geometry.degree)
        return geometry

    def default_max_moves(self) -> int:
        # every placement fills a point and a pass is never followed by a pass in a live game,
        # so no game lasts more than 2 * points + 1 moves
        return 2 * self.geometry.num_points + 2


class LinageState(GameState):
    """Linage's state: the passes in a row and the analysis in the row ``s``, the lines and
    regions in the arrays, all declared in :data:`FIELDS`."""

    __slots__ = tuple(a.name for a in FIELDS.arrays)
    fields = FIELDS

    @property
    def passes(self) -> int:
        """Consecutive passes just played."""
        return int(self.s[PASSES])

    @property
    def free_regions(self) -> int:
        return int(self.s[FREE_REGIONS])

    @property
    def points(self) -> tuple:
        """Points of the regions each side owns, ``(vertical, horizontal)``, komi not included."""
        return int(self.s[VERTICAL_POINTS]), int(self.s[HORIZONTAL_POINTS])

    def _load_extra(self, data):
        if np.any(self.board == 2):
            raise ValueError("state dict: 'board': Linage stones are neutral (values 0 or 1)")

    def _rules_end(self):
        if not _game_over(self.passes, self.free_regions):
            return False, -1
        return True, _winner_by_score(*self.scores())

    def _check_position(self):
        # a placement is legal only if every region keeps a line afterwards (and the empty board has one)
        g = self.game.geometry
        labels, count = label_components(self.board == EMPTY, g.neighbours, g.degree)
        if not np.all(any_per_component(labels, count, self.on_h | self.on_v)):
            raise ValueError("state dict: 'board' has a region without a line")

    def _refresh(self):
        linage_analyse(self.board, self.runs, self.safe, self.on_h, self.on_v, self.kind, self.mask, self.memo, self.s,
                       *self.game.geo_args)

    def _apply(self, action):
        return linage_act(self.board, self.runs, self.safe, self.on_h, self.on_v, self.kind, self.mask, self.memo,
                          self.s, action, *self.game.geo_args, self.game.options["komi"])

    def scores(self):
        return (self.points[0], self.points[1] + self.game.options["komi"])

    def _rollout(self, seed, moves_left, trace, uniform):
        return linage_rollout(self.board, self.mask, self.kind, self.memo, self.s, moves_left, *self.game.geo_args,
                              self.game.options["komi"], uniform, seed, trace)

    def observation(self, player: int) -> np.ndarray:
        side = player ^ self.flip
        out = np.empty(self.game.obs_shape, dtype=np.int8)
        linage_planes(self.board, self.kind, self.on_h, self.on_v, self.mask, side,
                      side == self.to_move and not self.terminal, self.game.komi_planes[side],
                      self.passes > 0, out)
        return out

    def _display_board(self):
        return self.board * 3  # neutral stones

    def _footer(self):
        text = super()._footer()
        return text + (" - the last move was a pass" if self.passes == 1 and not self.terminal else "")

    tints = (("in a region of vertical", (60, 90, 200), 0.35),
             ("in a region of horizontal", (200, 80, 60), 0.35))

    def tint_masks(self):
        return [self.kind == VERTICAL_OWNS, self.kind == HORIZONTAL_OWNS]


LinageGame.state_class = LinageState


# --- batched play (territory_envs.vector) -------------------------------------------------------
@njit(cache=True, parallel=True)
def linage_batch_step(actions, board, mask, facts, scalars, move_number, geo, komi, komi_planes, max_moves, outputs):
    """One action in every game of the batch, in parallel; finished games record their last
    observation and scores, then start again (see ``lin_batch_step``, and ``outputs`` there).
    ``facts`` holds the arrays of :data:`FIELDS` in their order, kept from step to step (a stone
    changes the lines of its row and column only); ``geo`` is ``LinageGame.geo_args``."""
    obs, rewards, terminated, truncated, final_obs, final_scores, final_view = outputs
    runs, safe, on_h, on_v, kind, memo = facts
    height, width, line_length, neighbours, degree = geo
    for e in prange(actions.shape[0]):
        if skip_game(e, actions, rewards, terminated, truncated):
            continue
        s = scalars[e]
        linage_act(board[e], runs[e], safe[e], on_h[e], on_v[e], kind[e], mask[e], memo[e], s, actions[e], height,
                   width, line_length, neighbours, degree, komi)
        if after_action(e, s[TERMINAL] == 1, s[WINNER], s[FLIP], move_number, max_moves, mask, rewards, terminated,
                        truncated):
            final_scores[e, 0] = s[VERTICAL_POINTS]
            final_scores[e, 1] = s[HORIZONTAL_POINTS] + komi
            viewer = final_viewer(final_view[e], s[TO_MOVE], s[FLIP])
            linage_planes(board[e], kind[e], on_h[e], on_v[e], mask[e], viewer, truncated[e] and viewer == s[TO_MOVE],
                          komi_planes[viewer], s[PASSES] > 0, final_obs[e])
            move_number[e] = 0
            _linage_new_game(board[e], runs[e], safe[e], on_h[e], on_v[e], kind[e], mask[e], memo[e], s, geo)
        linage_planes(board[e], kind[e], on_h[e], on_v[e], mask[e], s[TO_MOVE], True, komi_planes[s[TO_MOVE]],
                      s[PASSES] > 0, obs[e])


@njit(cache=True)
def _linage_new_game(board, runs, safe, on_h, on_v, kind, mask, memo, s, geo):
    """Reset one game: empty board, Vertical to move by player_0, the first analysis."""
    board[:] = EMPTY
    s[:] = 0
    s[WINNER] = -1
    height, width, line_length, neighbours, degree = geo
    linage_analyse(board, runs, safe, on_h, on_v, kind, mask, memo, s, height, width, line_length, neighbours, degree)


@njit(cache=True, parallel=True)
def linage_batch_reset(board, mask, facts, scalars, move_number, geo, komi_planes, obs):
    runs, safe, on_h, on_v, kind, memo = facts
    for e in prange(board.shape[0]):
        move_number[e] = 0
        _linage_new_game(board[e], runs[e], safe[e], on_h[e], on_v[e], kind[e], mask[e], memo[e], scalars[e], geo)
        linage_planes(board[e], kind[e], on_h[e], on_v[e], mask[e], 0, True, komi_planes[0], False, obs[e])


# --- random playouts (agents.mcts) ----------------------------------------------------------------
@njit(cache=True)
def linage_rollout(board, mask, kind, memo, s, moves_left, height, width, line_length, neighbours, degree, komi,
                   uniform, seed, trace):
    """Uniformly random legal placements from this position (copied, not changed; ``kind``,
    ``memo`` and the row ``s`` hold its analysis) to the end, at most ``moves_left`` actions; a
    pass only when no placement is legal (placements are the same for both sides, so two passes
    follow and end the game), or with ``uniform`` a pass as likely as each placement. Returns
    ``(winner player or -1, actions)``; actions and players go into ``trace``."""
    np.random.seed(seed)
    board = board.copy()
    n = board.shape[0]
    legal = mask.copy()
    legal[n] = 1
    kind = kind.copy()
    memo = memo.copy()
    s = s.copy()
    on_h = np.zeros(n, dtype=np.bool_)
    on_v = np.zeros(n, dtype=np.bool_)
    runs = np.empty((4, n), dtype=RUNS_DTYPE)
    safe = np.empty(n, dtype=np.uint8)
    line_facts(board, height, width, line_length, runs, safe, on_h, on_v, False)
    for move in range(moves_left):
        action = random_set_index(legal, n + 1 if uniform else n)  # legal[n]: the pass, always legal
        if action < 0:
            action = n  # no placement is legal: pass
        record_action(trace, move, action, s)
        linage_act(board, runs, safe, on_h, on_v, kind, legal, memo, s, action, height, width, line_length, neighbours,
                   degree, komi, False)
        if s[TERMINAL]:
            return winner_player(s[WINNER], s[FLIP]), move + 1
    return -1, moves_left
