"""The lines of a position: the empty runs from every cell in each direction and the safe bits
(:func:`line_facts`), kept from move to move: a stone changes them only in its row and column
(:func:`place_line_facts`)."""
from __future__ import annotations

from ...core.jit import kernel
from ...core.kernels import EMPTY, run_lengths


@kernel
def line_facts(board, height, width, line_length, runs, safe, on_h, on_v, planes=True):
    """The lines of a position: ``runs`` (4, N), the empty cells running from each cell to the
    left, right, up and down (:func:`run_lengths`); ``safe``; ``on_h``/``on_v`` with ``planes``."""
    run_lengths(board == EMPTY, height, width, runs[0], runs[1], runs[2], runs[3])
    for x in range(board.shape[0]):
        cell_line_facts(x, board, line_length, runs, safe, on_h, on_v, planes)


@kernel
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


@kernel
def lines_through(before, after, line_length):
    """How many lines of a run pass through a cell with ``before`` run cells up to it and ``after``
    from it (both counting the cell): the windows of ``line_length`` holding it."""
    return max(0, min(before, line_length) + min(after, line_length) - line_length)


@kernel
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


@kernel
def mark_neighbours(x, board, neighbours, degree, marked, todo, count):
    """Append x's empty neighbours not yet in ``todo`` to it; returns the new count."""
    for d in range(degree[x]):
        y = neighbours[x, d]
        if board[y] == EMPTY and not marked[y]:
            marked[y] = True
            todo[count] = y
            count += 1
    return count
