"""The board's groups and territories (:data:`Structure`), labelled in one pass and kept from
move to move in each game's ``memo``: a prison removal leaves it as it is, a stone changes only its
own region and the groups it joins (:func:`structure_after_stone`), a capture labels the board again."""
from __future__ import annotations

from collections import namedtuple

import numpy as np

from ...core.jit import kernel
from ...core.kernels import EMPTY, colour_of, flood_equal, flood_listing, is_listed, opponent_colour

# Regions of up to this many points go through dying_groups' scan, larger ones through the event
# ranges of dying_by_ranges: the same answer; the scan is faster when short, the ranges keep large
# regions at constant work per point.
SMALL_REGION = 24

# The board's groups and territories (see :func:`label_structure`), kept from move to move in one
# array per game, ``memo``: entry 0 says whether it describes the board (1) or must be made again
# (0, after a playout's shortcut), entries 1 and 2 hold the numbers of groups and regions, the
# arrays follow (:func:`structure_view`).
Structure = namedtuple("Structure", [
    "labels", "n_groups", "n_regions", "colour", "group_cells", "group_offsets", "region_cells",
    "region_offsets", "pair_start", "pair_group", "per_colour", "partners"])
MEMO_VALID, MEMO_GROUPS, MEMO_REGIONS, MEMO_HEAD = 0, 1, 2, 3
MEMO_DTYPE = np.int16  # (boards up to 25x25): half the memory a step reads, which is mostly not in cache


@kernel
def memo_size(n, max_degree):
    """Entries of a memo for ``n`` cells. Each (region, group) pair is met across its own edge
    between an empty point and a stone, so the pairs are at most the ``n * max_degree / 2`` edges."""
    return MEMO_HEAD + 10 * n + 3 + n * max_degree // 2


@kernel
def structure_view(memo, n, max_degree):
    """The :data:`Structure` held in ``memo``, as views of it."""
    at = MEMO_HEAD
    labels = memo[at:at + n]
    colour = memo[at + n:at + 2 * n]
    group_cells = memo[at + 2 * n:at + 3 * n]
    group_offsets = memo[at + 3 * n:at + 4 * n + 1]
    region_cells = memo[at + 4 * n + 1:at + 5 * n + 1]
    region_offsets = memo[at + 5 * n + 1:at + 6 * n + 2]
    pair_start = memo[at + 6 * n + 2:at + 7 * n + 3]
    pairs = n * max_degree // 2
    pair_group = memo[at + 7 * n + 3:at + 7 * n + 3 + pairs]
    per_colour = memo[at + 7 * n + 3 + pairs:at + 9 * n + 3 + pairs].reshape((n, 2))
    partners = memo[at + 9 * n + 3 + pairs:at + 10 * n + 3 + pairs]
    return Structure(labels, np.int64(memo[MEMO_GROUPS]), np.int64(memo[MEMO_REGIONS]), colour, group_cells,
                     group_offsets, region_cells, region_offsets, pair_start, pair_group, per_colour, partners)


@kernel
def asli_structure(board, on_board, neighbours, degree):
    """:func:`label_structure` into a new memo."""
    n = board.shape[0]
    return label_structure(board, np.empty(memo_size(n, neighbours.shape[1]), dtype=MEMO_DTYPE), on_board, neighbours,
                           degree)


@kernel
def label_structure(board, memo, on_board, neighbours, degree):
    """Groups, territories (regions) and which touch which, labelled in one pass over the board into
    ``memo``; returns them as views of it (:func:`structure_view`):

    * ``labels[i]``: the group of a stone, or the region of an empty point, -1 off the board
      (groups and regions are numbered apart); ``colour[g]``: 1 black, 2 white;
    * the stones of group ``g`` are ``group_cells[group_offsets[g]:group_offsets[g + 1]]``, the
      points of region ``r`` likewise in ``region_cells``;
    * the groups next to region ``r`` are ``pair_group[pair_start[r]:pair_start[r + 1]]``, each once;
    * ``per_colour[r, c]``: distinct groups of colour ``c + 1`` next to ``r``;
    * ``partners[g]``: the regions next to ``g`` that touch another group of its colour. A group
      lives iff it has one; it is in danger iff it has exactly one.
    """
    n = board.shape[0]
    memo[MEMO_VALID] = 0
    memo[MEMO_GROUPS] = 0
    memo[MEMO_REGIONS] = 0
    st = structure_view(memo, n, neighbours.shape[1])
    labels, colour, group_cells, group_offsets = st.labels, st.colour, st.group_cells, st.group_offsets
    labels[:] = -1
    n_groups = 0
    tail = 0
    for start in range(n):
        if board[start] == EMPTY or labels[start] >= 0:
            continue
        group_offsets[n_groups] = tail
        colour[n_groups] = board[start]
        tail = flood_equal(board, start, n_groups, labels, group_cells, tail, neighbours, degree)
        n_groups += 1
    group_offsets[n_groups] = tail
    stamp = np.full(max(n_groups, 1), -1, dtype=np.int32)  # the region that last listed a group
    region_cells, region_offsets, pair_start, pair_group = st.region_cells, st.region_offsets, st.pair_start, \
        st.pair_group
    per_colour = st.per_colour
    n_regions = 0
    tail = 0
    m = 0
    for start in range(n):
        if board[start] != EMPTY or labels[start] >= 0 or not on_board[start]:
            continue
        r = n_regions
        region_offsets[r] = tail
        pair_start[r] = m
        # the region's points, and the groups next to it (each once), in one flood
        tail, m = flood_listing(board, start, -1, r, labels, labels, region_cells, tail, stamp, r, pair_group, m,
                                neighbours, degree)
        n_regions += 1
    region_offsets[n_regions] = tail
    pair_start[n_regions] = m
    memo[MEMO_GROUPS] = n_groups
    memo[MEMO_REGIONS] = n_regions
    memo[MEMO_VALID] = 1
    st = Structure(labels, n_groups, n_regions, colour, group_cells, group_offsets, region_cells, region_offsets,
                   pair_start, pair_group, per_colour, st.partners)
    count_pairs(st)
    return st


@kernel
def count_pairs(st):
    """``per_colour`` and ``partners`` of the structure ``st`` from its pair lists."""
    st.per_colour[:st.n_regions] = 0
    st.partners[:st.n_groups] = 0
    for r in range(st.n_regions):
        for j in range(st.pair_start[r], st.pair_start[r + 1]):
            st.per_colour[r, st.colour[st.pair_group[j]] - 1] += 1
    for r in range(st.n_regions):
        for j in range(st.pair_start[r], st.pair_start[r + 1]):
            g = st.pair_group[j]
            st.partners[g] += st.per_colour[r, st.colour[g] - 1] >= 2


# p's eight surrounding points in order round it (N, NE, E, SE, S, SW, W, NW): consecutive ones,
# cyclically, are orthogonal neighbours of each other; the even ones are p's own neighbours
RING_ROWS = np.array([-1, -1, 0, 1, 1, 1, 0, -1], dtype=np.int64)
RING_COLS = np.array([0, 1, 1, 1, 0, -1, -1, -1], dtype=np.int64)


@kernel
def arcs_round(board, p):
    """The arcs of empty points round the point ``p`` of a square board that hold its empty
    neighbours: with one, p's region less p is one region; with none, p's region is p alone."""
    width = int(np.sqrt(board.shape[0]) + 0.5)
    row, col = p // width, p % width
    empty = 0  # bit k: ring point k is on the board and empty
    for k in range(8):
        rr, cc = row + RING_ROWS[k], col + RING_COLS[k]
        if 0 <= rr < width and 0 <= cc < width and board[rr * width + cc] == EMPTY:
            empty |= 1 << k
    if empty & 0x55 == 0:
        return 0  # no empty neighbour
    if empty == 0xFF:
        return 1
    first = 0
    while empty >> first & 1:
        first += 1  # a point that is not empty: the arcs begin after it
    arcs = 0
    in_arc = False
    neighbour_in_arc = False
    for t in range(1, 9):
        k = (first + t) % 8
        if empty >> k & 1:
            if not in_arc:
                in_arc = True
                neighbour_in_arc = False
            neighbour_in_arc |= k % 2 == 0
        elif in_arc:  # (a lone empty corner point is no arc: it does not touch p)
            in_arc = False
            arcs += neighbour_in_arc
    return arcs


@kernel
def touches_region_without(board, st, g, r, p, neighbours, degree):
    """Does group ``g`` touch a point of region ``r`` other than ``p``? Its stones next to ``p``
    first (the usual answer), then all of them."""
    for d in range(degree[p]):
        x = neighbours[p, d]
        if board[x] != EMPTY and st.labels[x] == g:
            for e in range(degree[x]):
                y = neighbours[x, e]
                if y != p and board[y] == EMPTY and st.labels[y] == r:
                    return True
    for j in range(st.group_offsets[g], st.group_offsets[g + 1]):
        x = st.group_cells[j]
        for e in range(degree[x]):
            y = neighbours[x, e]
            if y != p and board[y] == EMPTY and st.labels[y] == r:
                return True
    return False


# Long by choice: one pass that rewrites every array of the structure front to back, in place,
# each step reading the offsets the one before left (see the docstring's order).
@kernel
def structure_after_stone(st, memo, board, p, side, arcs, neighbours, degree):
    """Bring the structure ``st`` (views of ``memo``) of ``board`` up to date for a stone of
    ``side`` on the point ``p``, in place (captures aside); ``st`` is the structure of the board
    before the stone, ``board`` the board with it, ``arcs`` the caller's :func:`arcs_round` of p.
    Returns the new structure.

    Region ``r`` of p loses p. It stays one region if p's empty neighbours lie in one arc round p
    (:func:`arcs_round`); it goes if p has none (the later regions then move down one number);
    otherwise it may fall into parts, which one flood of ``r`` finds (:func:`split_region`).
    Every other region stays as it was. The stone and the friendly groups next to it become one
    group, numbered last (the others keep their order, so every array shrinks or keeps its place
    and is rewritten front to back). ``r`` then touches that group instead of the friends (or in
    addition, for a lone stone), and no longer an enemy group that touched it at p alone. A region
    next to several of the friends lists the joined group once. The counts follow from the pair
    lists (:func:`count_pairs`)."""
    gone = arcs == 0  # r is p alone
    n = board.shape[0]
    r = st.labels[p]
    foe = opponent_colour(side)
    near = np.empty(8, dtype=np.int32)  # the friends next to p, then (from 4) the enemies cut off from r
    friends = 0
    lost = 0
    for d in range(degree[p]):
        x = neighbours[p, d]
        g = st.labels[x]
        if board[x] == colour_of(side) and not is_listed(g, near, friends):
            near[friends] = g
            friends += 1
        elif board[x] == foe and not gone and not is_listed(g, near[4:], lost) and \
                not touches_region_without(board, st, g, r, p, neighbours, degree):
            near[4 + lost] = g
            lost += 1
    work = np.empty(2 * n, dtype=np.int32)
    remap = work[:n]  # the groups' new numbers
    moved = work[n:]  # the friends' stones, kept aside while the other groups move down
    joined = 0
    moving = 0
    for g in range(st.n_groups):
        remap[g] = joined
        joined += not is_listed(g, near, friends)
    for i in range(friends):
        g = near[i]
        remap[g] = joined
        for j in range(st.group_offsets[g], st.group_offsets[g + 1]):
            moved[moving] = st.group_cells[j]
            moving += 1
    tail = 0
    for g in range(st.n_groups):
        k = remap[g]
        if k == joined:
            continue
        first, last = st.group_offsets[g], st.group_offsets[g + 1]  # (read before k <= g is written)
        st.colour[k] = st.colour[g]
        st.group_offsets[k] = tail
        for j in range(first, last):
            st.group_cells[tail] = st.group_cells[j]
            tail += 1
    st.colour[joined] = colour_of(side)
    st.group_offsets[joined] = tail
    for j in range(moving):
        st.group_cells[tail + j] = moved[j]
    st.group_cells[tail + moving] = p
    st.group_offsets[joined + 1] = tail + moving + 1
    for i in range(n):
        stone = board[i] != EMPTY
        label = st.labels[i]
        moves_down = gone & (board[i] == EMPTY) & (label > r)  # (a region after r, when r goes)
        st.labels[i] = label + stone * (remap[label * stone] - label) - moves_down
    st.labels[p] = joined
    # p leaves region r: the points after it move down one place
    at = st.region_offsets[r]
    while st.region_cells[at] != p:
        at += 1
    total = st.region_offsets[st.n_regions]
    for j in range(at, total - 1):
        st.region_cells[j] = st.region_cells[j + 1]
    for x in range(r + 1, st.n_regions + 1):
        st.region_offsets[x - gone] = st.region_offsets[x] - 1
    # the pair lists, renumbered and filtered front to back (a lone stone adds one pair to r)
    m = 0
    first = 0
    listed_in = -1  # the last region that listed the joined group
    shift = 0  # 1 once the lists after r have moved up one place to make room in r's
    for x in range(st.n_regions):
        last = st.pair_start[x + 1] + shift
        if gone and x == r:  # its list goes
            first = last
            continue
        st.pair_start[x - (gone & (x > r))] = m
        for j in range(first, last):
            g = st.pair_group[j]
            k = remap[g]
            if k == joined:
                if listed_in == x:
                    continue
                listed_in = x
            elif x == r and is_listed(g, near[4:], lost):
                continue
            st.pair_group[m] = k
            m += 1
        if x == r and friends == 0:
            if m == last:  # no room: move the later lists up one place
                for j in range(st.pair_start[st.n_regions] - 1, last - 1, -1):
                    st.pair_group[j + 1] = st.pair_group[j]
                shift = 1
                last += 1
            st.pair_group[m] = joined  # the lone stone
            m += 1
        first = last
    regions = st.n_regions - gone
    st.pair_start[regions] = m
    memo[MEMO_GROUPS] = joined + 1
    memo[MEMO_REGIONS] = regions
    new = Structure(st.labels, joined + 1, regions, st.colour, st.group_cells, st.group_offsets, st.region_cells,
                    st.region_offsets, st.pair_start, st.pair_group, st.per_colour, st.partners)
    if arcs > 1:
        new = split_region(new, memo, board, p, r, neighbours, degree)
    count_pairs(new)
    return new


@kernel
def split_region(st, memo, board, p, r, neighbours, degree):
    """After :func:`structure_after_stone` has taken the stone on ``p`` (``board``: with it) with
    p's empty neighbours in two arcs or more, region ``r`` (its region less p) may be in parts: the
    part of r's first point keeps ``r`` and the others become new regions, numbered and stored
    after the last. Each part lists the groups next to it. Returns the structure (its counts are
    left to :func:`count_pairs`). A flood of ``r``, not of the board."""
    n = board.shape[0]
    first, last = st.region_offsets[r], st.region_offsets[r + 1]
    regions = st.n_regions
    work = np.empty(4 * n + 16, dtype=np.int32)
    cells = work[:n]  # each part's points, one part after the other
    stamp = work[n:2 * n]  # per group: the last part that listed it
    # the groups next to each part, each once per part: an edge of the board between a point and a
    # stone each, so fewer than 2 n in all
    lists = work[2 * n:4 * n]
    bounds = work[4 * n:4 * n + 8]  # where each part's points begin in ``cells`` (p makes four at most)
    list_bounds = work[4 * n + 8:]  # and its groups in ``lists``
    stamp[:st.n_groups] = -1
    parts = 0
    tail = 0
    listed = 0
    for j in range(first, last):
        start = st.region_cells[j]
        if st.labels[start] != r:
            continue  # in a part already (numbered ``regions + part`` while the parts are found)
        bounds[parts] = tail
        list_bounds[parts] = listed
        tail, listed = flood_listing(board, start, r, regions + parts, st.labels, st.labels, cells, tail, stamp, parts,
                                     lists, listed, neighbours, degree)
        parts += 1
    bounds[parts] = tail
    list_bounds[parts] = listed
    for j in range(bounds[1]):
        st.labels[cells[j]] = r  # part 0 keeps r; the others come after the last region
    if parts == 1:
        return st
    for j in range(bounds[1], tail):
        st.labels[cells[j]] -= 1
    replace_list(st.region_cells, st.region_offsets, r, regions, cells, bounds, parts)
    replace_list(st.pair_group, st.pair_start, r, regions, lists, list_bounds, parts)
    memo[MEMO_REGIONS] = regions + parts - 1
    return Structure(st.labels, st.n_groups, regions + parts - 1, st.colour, st.group_cells, st.group_offsets,
                     st.region_cells, st.region_offsets, st.pair_start, st.pair_group, st.per_colour, st.partners)


@kernel
def replace_list(values, starts, r, count, items, bounds, parts):
    """In the ``count`` lists stored one after another in ``values`` (list ``x`` is
    ``values[starts[x]:starts[x + 1]]``): list ``r`` becomes ``items[bounds[0]:bounds[1]]``, no
    longer than it was; the later lists move down; and ``items[bounds[q]:bounds[q + 1]]`` for
    ``q = 1 .. parts - 1`` follow the last as lists ``count .. count + parts - 2``."""
    first, last = starts[r], starts[r + 1]
    total = starts[count]
    drop = (last - first) - (bounds[1] - bounds[0])
    for j in range(bounds[0], bounds[1]):
        values[first + j - bounds[0]] = items[j]
    for j in range(last, total):
        values[j - drop] = values[j]
    for x in range(r + 1, count + 1):
        starts[x] -= drop
    at = total - drop
    for q in range(1, parts):
        starts[count + q - 1] = at
        for j in range(bounds[q], bounds[q + 1]):
            values[at] = items[j]
            at += 1
    starts[count + parts - 1] = at


@kernel
def capture_dead(board, foe_colour, st):
    """Move every dead group of ``foe_colour`` to the prison; returns ``(groups, stones)``."""
    groups = 0
    stones = 0
    for g in range(st.n_groups):
        if st.colour[g] == foe_colour and st.partners[g] == 0:
            groups += 1
            for j in range(st.group_offsets[g], st.group_offsets[g + 1]):
                board[st.group_cells[j]] = EMPTY
                stones += 1
    return groups, stones


@kernel
def touches_elsewhere(board, st, r, g, p, neighbours, degree):
    """Does group ``g`` touch region ``r`` at a point other than ``p``?"""
    for j in range(st.region_offsets[r], st.region_offsets[r + 1]):
        v = st.region_cells[j]
        if v != p:
            for d in range(degree[v]):
                nb = neighbours[v, d]
                if board[nb] != EMPTY and st.labels[nb] == g:
                    return True
    return False


@kernel
def regions_per_group(st):
    """The regions next to each group, in compressed-row form ``(group_start, group_regions)``."""
    m = st.pair_start[st.n_regions]
    group_start = np.zeros(st.n_groups + 1, dtype=np.int32)
    for j in range(m):
        group_start[st.pair_group[j] + 1] += 1
    for g in range(st.n_groups):
        group_start[g + 1] += group_start[g]
    group_regions = np.empty(m, dtype=np.int32)
    fill = group_start[:-1].copy()
    for r in range(st.n_regions):
        for j in range(st.pair_start[r], st.pair_start[r + 1]):
            g = st.pair_group[j]
            group_regions[fill[g]] = r
            fill[g] += 1
    return group_start, group_regions
