"""The regions kept from move to move: the whole analysis of a position (:func:`region_facts`)
and a stone's update of it (:func:`place_stone`: its lines, its region, the legality of the cells
whose answer can have changed)."""
from __future__ import annotations

import numpy as np

from ...core.jit import kernel
from ...core.kernels import EMPTY, flood_equal, label_components
from .layout import (COLUMNS, FREE, H_STARTS, LABELS_USED, NOT_EMPTY, RECHECK, ROWS, SEARCH_CAP, SEARCHED, V_STARTS,
                     in_span, memo_counts, region_kind)
from .lines import lines_through, place_line_facts
from .mask import decide_legal


@kernel
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
    memo_counts(memo, n)[LABELS_USED] = count
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
    memo_counts(memo, n)[SEARCHED] = decide_legal(np.arange(n, dtype=np.int32), n, board, height, width, line_length,
                                                  neighbours, degree, runs, safe, kind, legal, memo, 0, search_cap)
    return free_regions, vertical_points, horizontal_points


@kernel
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
    counts = memo_counts(memo, n)
    for j in range(counts[SEARCHED]):
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
    counts[SEARCHED] = decide_legal(todo, count, board, height, width, line_length, neighbours, degree, runs, safe,
                                    kind, legal, memo, kept, SEARCH_CAP)
    return free_regions, vertical_points, horizontal_points


@kernel
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


@kernel
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
            counts = memo_counts(memo, n)
            part_label = counts[LABELS_USED]
            counts[LABELS_USED] += 1
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
