"""Connectivity kernels shared by the four games, compiled with numba.

All kernels work on flat cell arrays and the neighbour table of a :class:`Geometry` (``neighbours``
int32 ``(N, D)`` padded with -1, each row sorted, ``degree`` int32 ``(N,)``). They allocate only
their outputs, touch each cell and each edge a bounded number of times (time linear in the number
of cells; the union-find of the component labelling near-linear), and hold no Python objects, so
batched kernels can call them from ``prange`` loops.

Vocabulary (docs/rulings.md): a *group* is a maximal connected set of same-coloured stones; a *region*
(Lifeline, Linage) or *territory* (Asli) is a maximal connected set of empty points; a Lin *domain*
of a colour is a maximal connected set of points holding no stone of the other colour. Every one of
them is a connected component of a cell set, possibly with the extra condition that neighbours share
a value.
"""
from __future__ import annotations

import sys

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from .jit import kernel

EMPTY = 0
BLACK = 1  # the first side (Vertical in Linage)
WHITE = 2


@kernel(inline="always")
def colour_of(side):
    """The board value of side ``side``'s stones: BLACK for the first side (0), WHITE for the second."""
    return side + 1


@kernel(inline="always")
def opponent_colour(side):
    """The board value of the stones of side ``side``'s opponent."""
    return 2 - side


@kernel(inline="always")
def other_colour(colour):
    """WHITE for BLACK, BLACK for WHITE."""
    return 3 - colour


@kernel
def label_components(member, neighbours, degree):
    """Connected components of the cells where ``member`` is true.

    Returns ``(labels, count)``: ``labels[i]`` is the component of cell ``i`` (0..count-1, numbered
    in order of their smallest cell) or -1 for a non-member.
    """
    return label_equal_components(member, member, neighbours, degree)


@kernel
def components_holding(member, flag, neighbours, degree, out):
    """``out[i]`` true iff cell ``i`` lies in a component of the member cells that holds a flagged
    cell (flagged cells must be members). A flood from the flagged cells alone: components without
    one are never visited, and no labels are made."""
    n = member.shape[0]
    out[:] = False
    stack = np.empty(n, dtype=np.int32)
    for start in range(n):
        if not flag[start] or out[start]:
            continue
        out[start] = True
        stack[0] = start
        top = 1
        while top > 0:
            top -= 1
            cell = stack[top]
            for k in range(degree[cell]):
                nb = neighbours[cell, k]
                if member[nb] and not out[nb]:
                    out[nb] = True
                    stack[top] = nb
                    top += 1


@kernel
def flood_equal(values, start, label, labels, cells, tail, neighbours, degree):
    """Label ``label`` the component of ``start``: the unlabelled cells joined to it through
    neighbours of equal ``values`` (a breadth-first flood). Its cells are appended to ``cells`` from
    ``tail`` on, in flood order; returns the new tail."""
    v = values[start]
    labels[start] = label
    cells[tail] = start
    head = tail
    tail += 1
    while head < tail:
        cell = cells[head]
        head += 1
        for k in range(degree[cell]):
            nb = neighbours[cell, k]
            if labels[nb] < 0 and values[nb] == v:
                labels[nb] = label
                cells[tail] = nb
                tail += 1
    return tail


@kernel
def relabel_component(labels, start, old, new, cells, tail, neighbours, degree):
    """Give ``new`` to the cells joined to ``start`` through neighbours whose ``labels`` read
    ``old`` (``start`` itself whatever it reads; ``new != old``), appending them to ``cells`` from
    ``tail`` in flood order; returns the new tail. (Lifeline: a region that takes a new label, a
    dead group's stones found from its label.)"""
    labels[start] = new
    cells[tail] = start
    head = tail
    tail += 1
    while head < tail:
        cell = cells[head]
        head += 1
        for d in range(degree[cell]):
            nb = neighbours[cell, d]
            if labels[nb] == old:
                labels[nb] = new
                cells[tail] = nb
                tail += 1
    return tail


@kernel
def flood_listing(board, start, old, new, region_of, group_of, cells, tail, stamp, tag, groups, listed, neighbours,
                  degree):
    """Flood a region and list its groups in the same pass: the empty cells joined to ``start``
    whose ``region_of`` reads ``old`` get ``new`` there and are appended to ``cells`` from
    ``tail``; the groups next to them (``group_of`` of their stones; -1 is passed over) not yet
    stamped ``tag`` in ``stamp`` are stamped and appended to ``groups`` from ``listed``. Returns
    the new ``(tail, listed)``. (Asli's structure, Lifeline's kept regions.)"""
    region_of[start] = new
    cells[tail] = start
    head = tail
    tail += 1
    while head < tail:
        cell = cells[head]
        head += 1
        for d in range(degree[cell]):
            nb = neighbours[cell, d]
            if board[nb] == EMPTY:
                if region_of[nb] == old:
                    region_of[nb] = new
                    cells[tail] = nb
                    tail += 1
            else:
                g = group_of[nb]
                if g >= 0 and stamp[g] != tag:
                    stamp[g] = tag
                    groups[listed] = g
                    listed += 1
    return tail, listed


@kernel
def label_equal_components(values, active, neighbours, degree):
    """Components of active cells where neighbours are joined only if their ``values`` are equal.

    With ``values = board`` and ``active = board > 0`` these are the groups of stones; with
    ``active = on_board & (board == 0)`` the regions of empty points. Returns ``(labels, count)`` as
    :func:`label_components`.

    Union-find in one pass over the cells, each joined to its lower-numbered neighbours (the first
    ones of its row of the neighbour table, which is sorted). Every tree is rooted at its smallest
    cell and every pointer goes to a smaller cell, so a second pass in cell order gives each cell
    its label from the already labelled cell it points to. About a third faster than a flood,
    whose neighbour tests branch less predictably; path halving keeps it near-linear.
    """
    n = values.shape[0]
    labels = np.empty(n, dtype=np.int32)  # parent pointers in the first pass
    for i in range(n):
        if not active[i]:
            labels[i] = -1
            continue
        labels[i] = i
        root = i  # i's root so far
        v = values[i]
        for k in range(degree[i]):
            nb = neighbours[i, k]
            if nb > i:
                break  # the table's rows are sorted (geometry.py)
            if values[nb] == v and active[nb]:
                other = find_root(labels, nb)
                if other < root:
                    labels[root] = other
                    root = other
                elif other > root:
                    labels[other] = root
    count = 0
    for i in range(n):
        parent = labels[i]
        if parent == i:
            labels[i] = count
            count += 1
        elif parent >= 0:
            labels[i] = labels[parent]  # parent < i: labelled already
    return labels, count


@kernel
def find_root(parent, i):
    """The root of ``i``'s tree, halving the path on the way."""
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


@kernel
def any_per_component(labels, count, flag):
    """``out[k]`` is true iff some cell of component ``k`` has ``flag`` set."""
    out = np.zeros(count, dtype=np.bool_)
    for i in range(labels.shape[0]):
        if labels[i] >= 0 and flag[i]:
            out[labels[i]] = True
    return out


@kernel
def bucket_by_label(labels, count):
    """Cells grouped by component (a counting sort): the cells of component ``k`` are
    ``order[offsets[k]:offsets[k + 1]]``."""
    n = labels.shape[0]
    offsets = np.zeros(count + 1, dtype=np.int32)
    for i in range(n):
        if labels[i] >= 0:
            offsets[labels[i] + 1] += 1
    for k in range(count):
        offsets[k + 1] += offsets[k]
    order = np.empty(offsets[count], dtype=np.int32)
    fill = offsets[:-1].copy()
    for i in range(n):
        k = labels[i]
        if k >= 0:
            order[fill[k]] = i
            fill[k] += 1
    return offsets, order


@kernel
def region_group_adjacency(region_labels, n_regions, group_labels, n_groups, neighbours, degree):
    """The distinct (region, group) pairs that touch, in compressed-row form.

    Returns ``(start, groups)``: the groups adjacent to region ``k`` are
    ``groups[start[k]:start[k + 1]]``, each listed once. Linear time: cells are bucketed by region
    and a per-group stamp removes duplicates.
    """
    offsets, order = bucket_by_label(region_labels, n_regions)
    stamp = np.full(max(n_groups, 1), -1, dtype=np.int32)
    start = np.zeros(n_regions + 1, dtype=np.int32)
    pairs = np.empty(max(order.shape[0] * neighbours.shape[1], 1), dtype=np.int32)
    m = 0
    for k in range(n_regions):
        start[k] = m
        for j in range(offsets[k], offsets[k + 1]):
            cell = order[j]
            for d in range(degree[cell]):
                g = group_labels[neighbours[cell, d]]
                if g >= 0 and stamp[g] != k:
                    stamp[g] = k
                    pairs[m] = g
                    m += 1
    start[n_regions] = m
    return start, pairs[:m].copy()


@kernel
def dfs_lowlink(member, neighbours, degree):
    """Iterative depth-first search over every component of the member cells, with Tarjan's
    low-links. Returns ``(disc, low, parent, size, order)``: discovery times (-1 for non-members),
    low-links, DFS-tree parents (-1 for roots), subtree sizes, and the members in discovery order
    (so the subtree of ``c`` is the cells with ``disc[c] <= disc < disc[c] + size[c]``).
    A cell ``p`` separates its component iff it is a root with two or more tree children, or has
    a child ``c`` with ``low[c] >= disc[p]`` (``tests/kernel_helpers.py`` derives them so)."""
    n = member.shape[0]
    disc, low, parent, size, next_nb, stack, order = lowlink_arrays(n)
    clock = 0
    for root in range(n):
        if member[root] and disc[root] < 0:
            clock = lowlink_component(member, root, neighbours, degree, disc, low, parent, size, next_nb, stack,
                                      order, clock)
    return disc, low, parent, size, order[:clock]


@kernel
def lowlink_arrays(n):
    """Fresh ``(disc, low, parent, size, next_nb, stack, order)`` for :func:`lowlink_component`."""
    return (np.full(n, -1, dtype=np.int32), np.zeros(n, dtype=np.int32), np.full(n, -1, dtype=np.int32),
            np.zeros(n, dtype=np.int32), np.zeros(n, dtype=np.int32), np.empty(n, dtype=np.int32),
            np.empty(n, dtype=np.int32))


@kernel
def lowlink_component(member, root, neighbours, degree, disc, low, parent, size, next_nb, stack, order, clock):
    """The search of :func:`dfs_lowlink` over the one component of ``root`` (so a caller can
    search only the components it asks about), numbering from ``clock``; returns the next clock."""
    disc[root] = clock
    low[root] = clock
    order[clock] = root
    clock += 1
    size[root] = 1
    stack[0] = root
    top = 1
    while top > 0:
        v = stack[top - 1]
        if next_nb[v] < degree[v]:
            w = neighbours[v, next_nb[v]]
            next_nb[v] += 1
            if not member[w]:
                continue
            if disc[w] < 0:
                parent[w] = v
                disc[w] = clock
                low[w] = clock
                order[clock] = w
                clock += 1
                size[w] = 1
                stack[top] = w
                top += 1
            elif w != parent[v] and disc[w] < low[v]:
                low[v] = disc[w]
        else:
            top -= 1
            p = parent[v]
            if p >= 0:
                if low[v] < low[p]:
                    low[p] = low[v]
                size[p] += size[v]
    return clock


MANY = -2  # in ``reach``: two or more distinct groups of that colour touch the region


@kernel
def liveness(board, on_board, neighbours, degree, links=None):
    """Groups, regions and which groups live (Lifeline, Asli): a group is alive iff some empty
    region next to it also touches another group of its colour; a lone group is dead.

    One labelling covers both: every on-board cell belongs to a component of equal value, a group
    of stones or a region of empty points. Returns ``(labels, count, alive, reach)``:
    ``labels`` int32 ``(N,)`` (-1 off the board); ``alive[k]`` true iff component ``k`` is a living
    group; ``reach[k, c]`` for a region ``k`` and colour ``c`` (0 black, 1 white): the one group of
    that colour touching it, -1 for none, ``MANY`` for two or more. One pass over the empty
    cells after the labelling; no sorting. With ``links`` (int8 ``(N,)``), the same pass also
    writes, per empty cell, bit ``c`` set when it touches two or more groups of colour ``c``
    (0 elsewhere).
    """
    labels, count = label_equal_components(board, on_board, neighbours, degree)
    reach = np.full((count, 2), -1, dtype=np.int32)
    alive = np.zeros(count, dtype=np.bool_)
    # one pass over the empty cells' neighbours: until a region meets a second group of a colour,
    # every group of that colour it met is the first one, so both live from that moment, and so
    # does every group it meets afterwards
    for i in range(board.shape[0]):
        if links is not None:
            links[i] = 0
        if not on_board[i] or board[i] != EMPTY:
            continue
        k = labels[i]
        near_black = -1  # a black and a white group next to i (for links)
        near_white = -1
        bits = 0
        for d in range(degree[i]):
            nb = neighbours[i, d]
            if board[nb] != EMPTY:
                c = board[nb] - 1
                g = labels[nb]
                if links is not None:
                    if c == 0:
                        if near_black == -1:
                            near_black = g
                        elif near_black != g:
                            bits |= 1
                    elif near_white == -1:
                        near_white = g
                    elif near_white != g:
                        bits |= 2
                first = reach[k, c]
                if first == MANY:
                    alive[g] = True
                elif first == -1:
                    reach[k, c] = g
                elif first != g:
                    reach[k, c] = MANY
                    alive[first] = True
                    alive[g] = True
        if links is not None:
            links[i] = bits
    return labels, count, alive, reach


@kernel
def run_lengths(member, height, width, left, right, up, down):
    """For every member cell of a square grid, how many member cells run from it (itself
    included) to the left, right, up and down before a non-member or the edge; 0 for non-members.
    (Cell ``i`` is on a horizontal run of ``left[i] + right[i] - 1`` members.)"""
    for r in range(height):
        count_run(member, r * width, 1, width, left)
        count_run(member, r * width + width - 1, -1, width, right)
    for c in range(width):
        count_run(member, c, width, height, up)
        count_run(member, c + (height - 1) * width, -width, height, down)


@kernel
def count_run(member, start, step, cells, out):
    """Along ``cells`` cells from ``start`` by ``step``: the member cells counted so far without a
    break, into ``out``."""
    run = 0
    for k in range(cells):
        i = start + k * step
        run = run + 1 if member[i] else 0
        out[i] = run


@kernel
def mark_line_ends(member, height, width, length, out):
    """``out[i]`` true iff ``length`` member cells of a square grid end at ``i`` in its row (from the
    left) or in its column (from the top): every line is marked at least once, at no cost per line.
    (Seeds for :func:`components_holding`: the components that hold a line.)"""
    for r in range(height):
        run = 0
        for c in range(width):
            i = r * width + c
            run = run + 1 if member[i] else 0
            out[i] = run >= length
    for c in range(width):
        run = 0
        for r in range(height):
            i = r * width + c
            run = run + 1 if member[i] else 0
            out[i] |= run >= length


@kernel
def mark_line_starts(member, height, width, length, row_start, col_start):
    """``row_start[i]`` is true iff the ``length`` cells from ``i`` rightwards are all members (a
    horizontal line starts at ``i``); ``col_start[i]`` likewise downwards. Each line of a square grid
    is counted once, at its first cell. Both outputs are overwritten."""
    for r in range(height):
        run = 0
        for c in range(width - 1, -1, -1):
            i = r * width + c
            run = run + 1 if member[i] else 0
            row_start[i] = run >= length
    for c in range(width):
        run = 0
        for r in range(height - 1, -1, -1):
            i = r * width + c
            run = run + 1 if member[i] else 0
            col_start[i] = run >= length


@kernel
def is_listed(v, items, count):
    """Is ``v`` among ``items[:count]``? (short lists of labels)"""
    for i in range(count):
        if items[i] == v:
            return True
    return False


# --- helpers for double placements (Lifeline's and Asli's first turns) -----------------------------
@kernel
def adjacent(a, b, neighbours, degree):
    for d in range(degree[a]):
        if neighbours[a, d] == b:
            return True
    return False


@kernel
def has_sharing_partner(board, p, neighbours, degree):
    """Is there an empty point ``q``, not next to ``p``, with an empty neighbour ``x`` of ``p``
    between them? Two lone stones on ``p`` and ``q`` then share x's region: both live."""
    for d in range(degree[p]):
        x = neighbours[p, d]
        if board[x] != EMPTY:
            continue
        for e in range(degree[x]):
            q = neighbours[x, e]
            if q != p and board[q] == EMPTY and not adjacent(p, q, neighbours, degree):
                return True
    return False


@kernel
def regions_next_to(board, cell, on_board, neighbours, degree):
    """``(labels, near)``: the liveness labelling of ``board`` and, per component, whether it is
    a region next to ``cell``. A lone stone not touching ``cell`` in such a region shares it with
    ``cell``'s stone."""
    labels, count, _, _ = liveness(board, on_board, neighbours, degree)
    near = np.zeros(count, dtype=np.bool_)
    for d in range(degree[cell]):
        x = neighbours[cell, d]
        if board[x] == EMPTY:
            near[labels[x]] = True
    return labels, near


@kernel
def percent(k, total, low=0):
    """round(100 * k / total), halves rounded up, clipped to [low, 100]: the scale of the int8
    constant planes that carry counts and komi (every game's, one rounding rule; ``low=-100`` for
    a komi that may be negative, ``k`` may be fractional)."""
    return max(low, min(100, int(np.floor((200.0 * k + total) / (2.0 * total)))))


def komi_planes(komi, points: int) -> np.ndarray:
    """The komi plane of each observing side, read-only int8 ``[first side, second side]``: the
    observer's komi as :func:`percent` of the board's ``points``, ``+komi`` for the second side
    and ``-komi`` for the first (an array: cheap to hand to a kernel)."""
    planes = np.array([percent.py_func(k, points, -100) for k in (-komi, komi)], dtype=np.int8)
    planes.flags.writeable = False
    return planes


# --- a set of 64-bit position hashes, as an open-addressing table (0 marks a free slot; its size is
# a power of two) --------------------------------------------------------------------------------------
@kernel
def hash_insert(table, h):
    """Insert ``h`` (non-zero); returns True if it was not there. The table must have a free slot."""
    mask = table.shape[0] - 1
    i = np.int64(h & np.uint64(mask))
    while True:
        if table[i] == h:
            return False
        if table[i] == 0:
            table[i] = h
            return True
        i = (i + 1) & mask


@kernel
def hash_contains(table, h):
    mask = table.shape[0] - 1
    i = np.int64(h & np.uint64(mask))
    while table[i] != 0:
        if table[i] == h:
            return True
        i = (i + 1) & mask
    return False


@kernel
def hash_rehash(old, new):
    """Move every entry of the tables ``old`` (B, C) into ``new`` (B, C') of larger C'."""
    for b in range(old.shape[0]):
        for j in range(old.shape[1]):
            if old[b, j] != 0:
                hash_insert(new[b], old[b, j])


# --- results and random playouts (agents.mcts) ------------------------------------------------------
@kernel
def winner_by_score(first, second):
    """The side with more points (0 first, 1 second), -1 on equal scores."""
    return 0 if first > second else 1 if second > first else -1


@kernel
def winner_player(winner_side, flip):
    """The player holding ``winner_side`` when the sides are flipped by ``flip``; -1 stays -1."""
    return winner_side ^ flip if winner_side >= 0 else -1


@kernel
def random_set_index(mask, stop):
    """A uniformly random ``i < stop`` with ``mask[i]`` set (numba's seeded generator), -1 if none."""
    count = 0
    for i in range(stop):
        count += mask[i] != 0
    if count == 0:
        return -1
    k = np.random.randint(count)
    for i in range(stop):
        if mask[i] != 0:
            if k == 0:
                return i
            k -= 1
    return -1


@kernel
def region_colours(board, p, neighbours, degree, seen, queue):
    """Colours of the stones next to the empty region of ``p`` as a bit set (1 black, 2 white):
    a flood fill of that region alone. ``seen`` (bool (N,), all false) and ``queue`` (int32 (N,))
    are scratch; ``seen`` is all false again on return."""
    colours = 0
    seen[p] = True
    queue[0] = p
    head = 0
    tail = 1
    while head < tail:
        cell = queue[head]
        head += 1
        for d in range(degree[cell]):
            nb = neighbours[cell, d]
            b = board[nb]
            if b == EMPTY:
                if not seen[nb]:
                    seen[nb] = True
                    queue[tail] = nb
                    tail += 1
            else:
                colours |= b
    for j in range(tail):
        seen[queue[j]] = False
    return colours


# --- observation planes, eight bytes at a time ------------------------------------------------------
# A cell's planes are consecutive int8 bytes of the observation: written one byte at a time, the
# observation is bound by its stores. Numba has no unaligned wide store, hence this intrinsic.
assert sys.byteorder == "little"  # (every platform numba supports): byte k of the word is plane k


@intrinsic
def store_eight(typingctx, flat, offset, word):
    """Store the uint64 ``word`` into the 8 bytes ``flat[offset:offset + 8]`` of a C-contiguous
    int8 array, byte k of the word at ``offset + k``. No bounds check."""
    def codegen(context, builder, signature, args):
        array = context.make_array(signature.args[0])(context, builder, args[0])
        address = builder.gep(array.data, [args[1]])
        value = context.cast(builder, args[2], signature.args[2], types.uint64)
        builder.store(value, builder.bitcast(address, ir.IntType(64).as_pointer()), align=1)
        return context.get_dummy_value()
    return types.void(flat, offset, word), codegen
