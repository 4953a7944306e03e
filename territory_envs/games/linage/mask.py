"""The legal mask by the local rule: a stone is legal iff from each of its empty neighbours a line
avoiding it can be reached (:func:`decide_legal`, a capped search from each, :func:`search_line`),
and the low-link method that decides every candidate of a position at once when a search gives up
(:func:`lowlink_legal`)."""
from __future__ import annotations

import numpy as np

from ...core.jit import kernel
from ...core.kernels import EMPTY, dfs_lowlink, mark_line_starts
from .layout import COLUMNS, FREE, RECHECK, ROWS, pack_span


@kernel
def decide_legal(cells, count, board, height, width, line_length, neighbours, degree, runs, safe, kind, legal,
                 memo, searched, search_cap):
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


@kernel
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


@kernel
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


@kernel
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
