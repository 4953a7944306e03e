"""Incremental play: the facts kept from move to move in ``memo`` (regions, groups, the groups of
each colour next to each region, the life of each group, each colour's placements, the walls), and
the usual turn that updates them (:func:`usual_turn`, :func:`remove_dead_groups`)."""
from __future__ import annotations

import numpy as np

from ...core.jit import kernel
from ...core.kernels import (EMPTY, any_per_component, colour_of, find_root, flood_listing, is_listed,
                             label_components, other_colour, region_group_adjacency, relabel_component)

# --- incremental play: the facts kept from move to move ---------------------------------------------
# ``memo`` (``MEMO_DTYPE``, MEMO_BLOCKS * n + 2) holds MEMO_BLOCKS blocks of n entries, read through
# ``memo_blocks`` as the rows of one (MEMO_BLOCKS, n) view, then how many cells each colour may place
# on (``placement_counts``: Black's, White's). The rows:
#   REGION         per cell, its region's label (-1 on stones and off the board)
#   COUNT + c      per region label, how many distinct groups of colour c (1 Black, 2 White) touch it
#                  (rows BLACK_GROUPS and WHITE_GROUPS)
#   GROUP          per cell, its group's label (-1 on empty cells)
#   LIFE           per group label, how many regions next to the group touch another group of its
#                  colour (the group lives iff that is positive)
#   PLACE + c      per cell, 1 if colour c may place there by the local rule (its region touches a
#                  group of colour c)
#   WALL           the walls (below)
# A label is one of the cells of its region or group: a group keeps it while it grows, a region while
# it shrinks, and a region whose label cell takes a stone is given another (``relabel_region``), so
# labels stay distinct.
#
# The *walls* are the connected sets of stones of either colour, all that lies off the board counting
# as one more stone (the grid's corner cell ``EXTERIOR``, off every hexhex board): a union-find, each
# stone's entry its parent. On the hexhex board's cells (a triangular lattice, which matches itself)
# they are the dual of the regions: a stone on p splits its region exactly when two of the runs of
# stones round p (see ``walls_apart``) belong to one wall, closing a loop through p. They are exact
# after ``build_memo``; a usual turn adds its stone, but a removal leaves the walls as they were
# (the emptied cells stay in the union-find): coarser than the true ones, they may see a loop that
# is no longer there, and the turn then floods the parts of the region, which is exact anyway.
REGION, BLACK_GROUPS, WHITE_GROUPS, GROUP, LIFE, WALL, MEMO_BLOCKS = 0, 1, 2, 3, 4, 7, 8
COUNT = 0  # COUNT + colour: BLACK_GROUPS or WHITE_GROUPS
PLACE = LIFE  # PLACE + colour: rows 5 and 6
EXTERIOR = 0
# passing values of a cell's REGION while the regions are relabelled (split_region, free_cells)
FLOODED = -2  # a flood reached the cell; its new region gets its label after the flood
FREED = -3  # a stone just removed: in no region yet
# int16 (every entry is a cell, a count of cells or a flag; side 15 has 841 grid cells): it is most
# of a game's memory, and a large batch's memos do not stay in cache
MEMO_DTYPE = np.int16


@kernel
def memo_size(n):
    return MEMO_BLOCKS * n + 2


@kernel(inline="always")
def memo_blocks(memo, n):
    """The blocks of ``memo`` as the rows of one (MEMO_BLOCKS, n) view (see above)."""
    return memo[:MEMO_BLOCKS * n].reshape(MEMO_BLOCKS, n)


@kernel(inline="always")
def placement_counts(memo, n):
    """How many cells each colour may place on by the local rule: Black's, then White's."""
    return memo[MEMO_BLOCKS * n:]


@kernel
def set_placeable(blocks, totals, cell, region):
    """Both colours' placement flags of the empty ``cell`` of ``region``, and their counts."""
    for c in (1, 2):
        now = blocks[COUNT + c, region] > 0
        totals[c - 1] += now - blocks[PLACE + c, cell]
        blocks[PLACE + c, cell] = now


@kernel
def clear_placeable(blocks, totals, cell):
    for c in (1, 2):
        totals[c - 1] -= blocks[PLACE + c, cell]
        blocks[PLACE + c, cell] = 0


@kernel
def wall_of(blocks, i):
    """The root of the wall holding the stone ``i`` (or ``EXTERIOR``)."""
    return find_root(blocks[WALL], i)


@kernel
def build_walls(board, blocks, neighbours, degree):
    """The walls of ``board`` afresh, flat: every stone's entry its wall's root (``EXTERIOR`` for a
    wall with a stone on the edge, else the wall's first cell), -1 on empty cells."""
    n = board.shape[0]
    stones = board != EMPTY
    labels, count = label_components(stones, neighbours, degree)
    on_edge = any_per_component(labels, count, stones & (degree < 6))
    root = np.full(count, -1, dtype=np.int32)
    walls = blocks[WALL]
    for i in range(n):
        k = labels[i]
        if k >= 0 and root[k] < 0:
            root[k] = EXTERIOR if on_edge[k] else i
        walls[i] = root[k] if k >= 0 else -1
    walls[EXTERIOR] = EXTERIOR


@kernel(inline="always")
def join_walls(board, p, ring, blocks):
    """The stone just placed on ``p`` (ring ``ring``, see :func:`ring_of`) joins the walls of the
    runs of stones and off-board cells round it. A run is one wall already (consecutive cells of the
    ring touch, and a stone next to an off-board cell is on the edge), so its first cell is enough.
    A cell emptied by a removal is still in its old wall, and stays there (its entry may be the
    parent of others)."""
    walls = blocks[WALL]
    if walls[p] < 0:
        walls[p] = p
    root = wall_of(blocks, p)
    walled_in = True  # no empty neighbour: the whole ring is one run
    for k in range(6):
        walled_in &= not (ring[k] >= 0 and board[ring[k]] == EMPTY)
    for k in range(6):
        x = ring[k]
        before = ring[(k + 5) % 6]
        if (x < 0 or board[x] != EMPTY) and (walled_in and k == 0 or before >= 0 and board[before] == EMPTY):
            other = wall_of(blocks, EXTERIOR if x < 0 else x)
            if other == root:
                continue
            if root == p:  # p alone so far: it hangs under the run's wall
                walls[p] = root = other
            else:
                walls[other] = root


@kernel(inline="always")
def walls_apart(board, ring, blocks):
    """Before a stone goes on a cell with ring ``ring`` (see :func:`ring_of`) whose empty
    neighbours form two or more arcs: is each run of stones and off-board cells between them in a
    wall of its own? Then the arcs stay joined once the stone is placed (its region does not
    split). Otherwise two runs are in one wall, which closes a loop through the stone if the walls
    are exact (they may be coarser: see ``memo``)."""
    first = second = -1  # the walls of the runs met so far (three at most)
    for k in range(6):
        x = ring[k]
        before = ring[(k + 5) % 6]
        if (x < 0 or board[x] != EMPTY) and before >= 0 and board[before] == EMPTY:  # a run begins
            root = wall_of(blocks, EXTERIOR if x < 0 else x)
            if root == first or root == second:
                return False
            if first < 0:
                first = root
            else:
                second = root
    return True


@kernel
def build_memo(board, labels, count, neighbours, degree, memo):
    """``memo`` for the position on ``board``, found whole (after any turn but the usual one) from
    its groups and regions as ``liveness`` labels them."""
    n = board.shape[0]
    blocks = memo_blocks(memo, n)
    totals = placement_counts(memo, n)
    first = np.full(count, -1, dtype=np.int32)  # each component's label: its first cell
    for i in range(n):
        k = labels[i]
        if k >= 0 and first[k] < 0:
            first[k] = i
    memo[:] = 0
    blocks[REGION, :] = -1
    blocks[GROUP, :] = -1
    region_labels = np.full(n, -1, dtype=np.int32)
    group_labels = np.full(n, -1, dtype=np.int32)
    for i in range(n):
        k = labels[i]
        if k < 0:
            continue
        if board[i] == EMPTY:
            blocks[REGION, i] = first[k]
            region_labels[i] = k
        else:
            blocks[GROUP, i] = first[k]
            group_labels[i] = k
    start, pairs = region_group_adjacency(region_labels, count, group_labels, count, neighbours, degree)
    for k in range(count):
        for j in range(start[k], start[k + 1]):
            blocks[COUNT + board[first[pairs[j]]], first[k]] += 1
    for k in range(count):
        for j in range(start[k], start[k + 1]):
            g = first[pairs[j]]
            if blocks[COUNT + board[g], first[k]] >= 2:
                blocks[LIFE, g] += 1
    for i in range(n):
        if blocks[REGION, i] >= 0:
            set_placeable(blocks, totals, i, blocks[REGION, i])
    build_walls(board, blocks, neighbours, degree)


@kernel
def ring_of(p, width, neighbours, degree, ring):
    """p's neighbours in order round it into ``ring`` (6 entries, -1 where the board ends):
    consecutive ones, cyclically, are neighbours of each other."""
    ring[:] = -1
    for d in range(degree[p]):
        nb = neighbours[p, d]
        offset = nb - p
        if offset == -width:
            ring[0] = nb
        elif offset == 1 - width:
            ring[1] = nb
        elif offset == 1:
            ring[2] = nb
        elif offset == width:
            ring[3] = nb
        elif offset == width - 1:
            ring[4] = nb
        else:
            ring[5] = nb


@kernel(inline="always")
def round_the_stone(board, mover, ring, blocks, near):
    """What lies round an empty cell with neighbours ``ring`` (see :func:`ring_of`) for a stone of
    colour ``mover``: the distinct groups next to it into ``near`` (the mover's from 0, the
    enemy's from 6). Returns ``(friends, enemies, arcs, empties)``: how many of each kind of group,
    how many arcs of empty neighbours and how many empty neighbours."""
    friends = 0
    enemies = 0
    arcs = 0
    empties = 0
    for k in range(6):
        x = ring[k]
        if x < 0:
            continue
        before = ring[(k + 5) % 6]
        if board[x] == EMPTY:
            empties += 1
            arcs += not (before >= 0 and board[before] == EMPTY)
            continue
        g = blocks[GROUP, x]
        if board[x] == mover:
            if not is_listed(g, near, friends):
                near[friends] = g
                friends += 1
        else:
            if not is_listed(g, near[6:], enemies):
                near[6 + enemies] = g
                enemies += 1
    return friends, enemies, arcs, empties


@kernel(inline="always")
def enemies_touch_arcs(board, enemy, ring, blocks):
    """Does every group of colour ``enemy`` next to the cell with ring ``ring`` touch one of its
    empty neighbours (an arc)? (A group touches an arc if one of its stones next to the cell does.)
    Then each still touches the cell's region once a stone fills the cell."""
    every = True
    for k in range(6):
        x = ring[k]
        if x >= 0 and board[x] == enemy:
            touches = False
            for e in range(6):
                y = ring[e]
                if y >= 0 and board[y] == enemy and blocks[GROUP, y] == blocks[GROUP, x]:
                    for step in (5, 1):
                        z = ring[(e + step) % 6]
                        touches |= z >= 0 and board[z] == EMPTY
            every &= touches
    return every


# the stamps of split_region's lists (``stamp``, per group label): 0..2 the part whose flood listed
# the group (flood_listing), STAMP_ONCE the list of R's groups once each, STAMP_PART + q part q's list
STAMP_ONCE, STAMP_PART = 7, 8


@kernel(inline="always")
def turn_scratch(n):
    """The scratch lists of :func:`usual_turn` and :func:`split_region`, in one allocation:
    ``ring`` (6, :func:`ring_of`), ``near`` (12, :func:`round_the_stone`), ``part_start`` and
    ``list_start`` (8 each: where each part's cells start in ``cells`` and its groups in ``lists``),
    ``suspect`` (1), ``cells`` (n), ``stamp`` (n) and ``lists`` (6n: three parts' lists, p's
    neighbours, each group once: under 4n + 24)."""
    near_at = 6
    part_start_at = near_at + 12
    list_start_at = part_start_at + 8
    suspect_at = list_start_at + 8
    cells_at = 64  # (the short lists take 35 entries, padded to 64)
    stamp_at = cells_at + n
    lists_at = stamp_at + n
    work = np.empty(lists_at + 6 * n, dtype=np.int32)
    return (work[:near_at], work[near_at:part_start_at], work[part_start_at:list_start_at],
            work[list_start_at:suspect_at], work[suspect_at:suspect_at + 1], work[cells_at:stamp_at],
            work[stamp_at:lists_at], work[lists_at:])


@kernel
def usual_turn(board, p, side, memo, links, alive_cell, mask, neighbours, degree):
    """The usual turn, incrementally: ``side`` places on ``p`` with removal on, a single stone and
    every group alive before it. Brings ``memo``, ``links``, ``alive_cell`` and the opponent's
    placements (``mask`` over the cells) up to date, touching only p's region R and the groups the
    stone joins, and the regions that removed groups free (:func:`remove_dead_groups`). Returns the
    number of the opponent's legal cells by the local rule, and True: every group lives after it.

    Only R changes among the regions: it loses p and may split into parts. If p's empty neighbours
    form one arc round it, or several arcs between runs of stones of distinct walls (:func:`walls_apart`),
    and every enemy group next to p still touches an arc, R - p is one region next to the same
    enemy groups and only the mover's count changes: no flood (unless it rises to 2, when R gives
    life to the one friendly group it touched, which a flood finds). Otherwise
    the parts are flooded (:func:`split_region`). A stone joining two or more friendly groups also
    changes the other regions next to them, which now count them as one (:func:`join_friends`)."""
    n = board.shape[0]
    blocks = memo_blocks(memo, n)
    totals = placement_counts(memo, n)
    width = int(np.sqrt(n) + 0.5)  # the grid of a hexhex board is square
    mover = colour_of(side)
    enemy = other_colour(mover)
    region = blocks[REGION, p]
    mover_before = blocks[COUNT + mover, region]
    scratch = turn_scratch(n)
    ring, near, _, _, suspect, cells, _, _ = scratch
    ring_of(p, width, neighbours, degree, ring)
    friends, enemies, arcs, empties = round_the_stone(board, mover, ring, blocks, near)
    one_part = enemies_touch_arcs(board, enemy, ring, blocks)
    # and the count of the mover's groups next to R stays on the same side of 2 for every group
    # but the stone's (it rises from 1 to 2 when a lone stone joins R's only friend: a flood finds it)
    one_part &= mover_before >= 2 or friends > 0
    one_part &= empties > 0  # (no empty neighbour: R is p alone and goes)
    if one_part and arcs > 1:  # several arcs: R - p is still one region unless p closes a wall's loop
        one_part = walls_apart(board, ring, blocks)
    board[p] = mover
    join_walls(board, p, ring, blocks)
    blocks[REGION, p] = -1
    clear_placeable(blocks, totals, p)
    alive_cell[p] = True
    if one_part:
        if region == p:  # R's label was p's cell: R - p takes one of its own cells
            region = relabel_region(board, p, ring, region, blocks, neighbours, degree, cells)
        mover_after = mover_before - friends + 1  # the joined groups and the stone count once
        blocks[COUNT + mover, region] = mover_after
        joined = join_friends(board, p, near, friends, region, blocks, neighbours, degree, cells)
        joined_cells = cells
        label = blocks[GROUP, p]
        # R - p gives the joined group life as R gave each part of it
        blocks[LIFE, label] += (mover_after >= 2) - friends * (mover_before >= 2)
        dead = blocks[LIFE, label] <= 0
        suspects = suspect  # only the joined group can die (see above)
        suspects[0] = label
    else:
        joined_cells, joined, dead, suspects = split_region(board, p, region, friends, enemies, blocks, totals,
                                                            neighbours, degree, scratch)
    relink(board, p, blocks, links, neighbours, degree, joined_cells, joined)
    if dead:
        remove_dead_groups(board, side, blocks, totals, links, alive_cell, neighbours, degree, suspects)
    mask[:] = blocks[PLACE + enemy]  # the opponent's placements
    return totals[enemy - 1], True  # (every group left lives: see remove_dead_groups)


@kernel(inline="always")
def split_region(board, p, region, friends, enemies, blocks, totals, neighbours, degree, scratch):
    """The rest of :func:`usual_turn` when R - p may be several regions (the stone is on ``p``,
    R's label ``region``): the parts of R - p, and the groups next to each (labels before the
    stone joins any), in one flood per part; R's gift of life ends for every group next to it, and
    each part gives its own. Returns ``(joined_cells, joined, dead, suspects)``: the stones of the
    joined groups that changed label (:func:`join_friends`), whether a group may have died, and
    the groups whose life the turn lowered."""
    ring, near, part_start, list_start, _, cells, stamp, lists = scratch
    stamp[:] = -1
    regions = blocks[REGION]
    groups = blocks[GROUP]
    total = 0
    listed_groups = 0
    parts = 0
    for k in range(6):  # a flooded cell's region reads FLOODED until its part is labelled
        start = ring[k]
        if start < 0 or board[start] != EMPTY or blocks[REGION, start] != region:
            continue
        part_start[parts] = total
        list_start[parts] = listed_groups
        total, listed_groups = flood_listing(board, start, region, FLOODED, regions, groups, cells, total, stamp, parts,
                                             lists, listed_groups, neighbours, degree)  # (p has no label yet)
        parts += 1
    part_start[parts] = total
    list_start[parts] = listed_groups
    # R's gift of life ends for every group next to it: those of the parts and p's neighbours
    # (listed after the parts' lists, then once each, from ``distinct`` on)
    distinct = listed_groups
    for k in range(12):
        if k < friends or 6 <= k < 6 + enemies:
            lists[distinct] = near[k]
            distinct += 1
    end = distinct
    for j in range(distinct):
        g = lists[j]
        if stamp[g] != STAMP_ONCE:
            stamp[g] = STAMP_ONCE
            lists[end] = g
            end += 1
    gifts(board, blocks, region, lists, distinct, end, -1)
    joined_cells = cells[total:]
    joined = join_friends(board, p, near, friends, region, blocks, neighbours, degree, joined_cells)
    label = blocks[GROUP, p]
    for q in range(parts):  # each part: its label, and its groups (the joined ones as one), counts, gifts
        part = cells[part_start[q]]
        tag = STAMP_PART + q
        stamp[label] = tag  # every part touches the stone
        lists[end] = label
        count = end + 1
        for j in range(list_start[q], list_start[q + 1]):
            g = label if is_listed(lists[j], near, friends) else lists[j]
            if stamp[g] != tag:
                stamp[g] = tag
                lists[count] = g
                count += 1
        endow_region(board, blocks, part, lists, end, count)
        for j in range(part_start[q], part_start[q + 1]):
            blocks[REGION, cells[j]] = part
            set_placeable(blocks, totals, cells[j], part)
    dead = blocks[LIFE, label] <= 0
    for j in range(distinct, end):  # every group that R touched lives?
        dead |= blocks[LIFE, lists[j]] <= 0 and not is_listed(lists[j], near, friends)
    lists[end] = label
    return joined_cells, joined, dead, lists[distinct:end + 1]  # (the groups whose life the turn lowered)


@kernel
def relabel_region(board, p, ring, region, blocks, neighbours, degree, queue):
    """Give R - p (one region) the label of one of its cells, an empty neighbour of ``p``, with R's
    counts (its cells are found by their old label); returns the new label."""
    label = -1
    for k in range(6):
        if ring[k] >= 0 and board[ring[k]] == EMPTY:
            label = ring[k]
            break
    relabel_component(blocks[REGION], label, region, label, queue, 0, neighbours, degree)
    for c in (1, 2):
        blocks[COUNT + c, label] = blocks[COUNT + c, region]
    return label


@kernel
def remove_dead_groups(board, side, blocks, totals, links, alive_cell, neighbours, degree, suspects):
    """The removals of a usual turn in which a group died, from ``memo`` exact for the board with
    the stone: the enemy's groups with no life go, then the mover's that have none on the board
    left (removing enemies only merges regions, which kills no friend). Only groups whose life the
    turn lowered can die: ``suspects`` lists their labels (a label that a join retired, no longer
    its group's, is passed over). Freed cells merge with the regions next to them
    (:func:`free_cells`). Every group left lives (merged regions only give more life), so only the
    freed cells leave ``alive_cell``."""
    n = board.shape[0]
    mover = colour_of(side)
    work = np.empty(4 * n, dtype=np.int32)
    for colour in (other_colour(mover), mover):
        freed = 0
        for t in range(suspects.shape[0]):
            g = suspects[t]
            if board[g] != colour or blocks[GROUP, g] != g or blocks[LIFE, g] > 0:
                continue
            # the group's stones, from its label's cell, lose the label (so a label listed twice is
            # passed over)
            freed = relabel_component(blocks[GROUP], g, g, -1, work, freed, neighbours, degree)
        if freed > 0:
            for j in range(freed):
                alive_cell[work[j]] = False
            free_cells(board, work, freed, blocks, totals, links, neighbours, degree)


@kernel
def free_cells(board, work, freed, blocks, totals, links, neighbours, degree):
    """Empty the stones ``work[:freed]`` (whole groups). Each connected set of freed cells makes one
    new region with every region next to it, labelled by its first cell: each absorbed region's
    gift of life ends (its groups found by a flood of it), and the new region's counts and gifts
    are made, and the freed cells' links. ``work`` holds ``4 * n`` entries."""
    n = board.shape[0]
    queue = work[n:2 * n]
    stamp = work[2 * n:3 * n]  # per group label: the region (or n + the new one) that listed it last
    groups = work[3 * n:]
    stamp[:] = -1
    for j in range(freed):
        c = work[j]
        board[c] = EMPTY
        blocks[GROUP, c] = -1
        blocks[REGION, c] = FREED
    tail = 0
    for j in range(freed):
        if blocks[REGION, work[j]] != FREED:
            continue
        first = tail  # a new region: the freed cells joined to this one, and the regions they touch
        blocks[REGION, work[j]] = FLOODED
        queue[tail] = work[j]
        tail += 1
        head = first
        while head < tail:
            x = queue[head]
            head += 1
            for d in range(degree[x]):
                y = neighbours[x, d]
                s = blocks[REGION, y]
                if board[y] != EMPTY or s == FLOODED:
                    continue
                if s == FREED:
                    blocks[REGION, y] = FLOODED
                    queue[tail] = y
                    tail += 1
                    continue
                # absorb region s whole: its gift of life ends
                tail, listed_groups = flood_listing(board, y, s, FLOODED, blocks[REGION],
                                                    blocks[GROUP], queue, tail, stamp, s, groups, 0,
                                                    neighbours, degree)
                gifts(board, blocks, s, groups, 0, listed_groups, -1)
        label = queue[first]
        listed_groups = 0
        for j2 in range(first, tail):
            c = queue[j2]
            blocks[REGION, c] = label
            for d in range(degree[c]):
                z = neighbours[c, d]
                if board[z] != EMPTY:
                    g = blocks[GROUP, z]
                    if stamp[g] != n + label:
                        stamp[g] = n + label
                        groups[listed_groups] = g
                        listed_groups += 1
        endow_region(board, blocks, label, groups, 0, listed_groups)
        for j2 in range(first, tail):
            set_placeable(blocks, totals, queue[j2], label)
    # the freed cells' links; their empty neighbours keep theirs: an empty cell next to a dead
    # group and another group of its colour would give it life
    for j in range(freed):
        link_cell(board, work[j], blocks, links, neighbours, degree)


@kernel
def gifts(board, blocks, region, groups, start, stop, sign):
    """Add ``sign`` (1 or -1) to the life of each of ``groups[start:stop]`` (distinct labels) to
    which ``region`` gives life (it touches two or more groups of that colour)."""
    for t in range(start, stop):
        g = groups[t]
        blocks[LIFE, g] += sign * (blocks[COUNT + board[g], region] >= 2)


@kernel
def endow_region(board, blocks, region, groups, start, stop):
    """A new ``region`` touching the distinct groups ``groups[start:stop]``: its counts per colour,
    and its gift of life to each of them."""
    blocks[BLACK_GROUPS, region] = 0
    blocks[WHITE_GROUPS, region] = 0
    for t in range(start, stop):
        blocks[COUNT + board[groups[t]], region] += 1
    gifts(board, blocks, region, groups, start, stop, 1)


@kernel
def link_cell(board, y, blocks, links, neighbours, degree):
    """``links[y]`` of the empty cell ``y`` afresh, both colours."""
    for colour in (1, 2):
        link_colour(board, y, colour, blocks, links, neighbours, degree)


@kernel
def link_colour(board, y, colour, blocks, links, neighbours, degree):
    """Bit ``colour`` of ``links[y]`` afresh: the empty cell ``y`` touches two or more groups of
    that colour."""
    first = -1
    linked = False
    for e in range(degree[y]):
        z = neighbours[y, e]
        if board[z] == colour:
            g = blocks[GROUP, z]
            if first == -1:
                first = g
            elif g != first:
                linked = True
    links[y] = (links[y] & ~colour) | (colour if linked else 0)


@kernel
def join_friends(board, p, friends, count, region, blocks, neighbours, degree, cells):
    """The stone on ``p`` joins the mover's groups labelled ``friends[:count]`` into one group
    (``p`` alone, life 0, if none). With two or more, the joined group's life is the sum of theirs,
    less what each other region next to two or more of them stops giving (``region``, p's, is the
    caller's): such a region counts them as one from now on. The joined group takes the label of
    its largest part, whose stones keep it; the stones of the other parts go into ``cells``.
    Returns how many (0 when fewer than two groups join: no stone changes group)."""
    n = board.shape[0]
    if count == 0:
        blocks[GROUP, p] = p
        blocks[LIFE, p] = 0
        return 0
    label = friends[0]
    blocks[GROUP, p] = label
    if count == 1:
        return 0
    colour = board[p]
    life = 0
    for k in range(count):
        life += blocks[LIFE, friends[k]]
    work = np.zeros(3 * n + 6, dtype=np.int32)
    seen = work[:n]
    bits = work[n:2 * n]  # per region label: which joined groups it touches
    touched = work[2 * n:3 * n]
    sizes = work[3 * n:]  # stones per joined group (p counts in the first)
    n_touched = 0
    cells[0] = p
    seen[p] = 1
    head, tail = 0, 1
    while head < tail:
        x = cells[head]
        head += 1
        bit = 0
        for k in range(count):
            if friends[k] == blocks[GROUP, x]:
                bit = 1 << k
                sizes[k] += 1
        for d in range(degree[x]):
            y = neighbours[x, d]
            if board[y] == EMPTY:
                s = blocks[REGION, y]
                if s != region and s >= 0 and bit != 0:  # (FLOODED: a part of region being flooded)
                    if bits[s] == 0:
                        touched[n_touched] = s
                        n_touched += 1
                    bits[s] |= bit
            elif board[y] == colour and seen[y] == 0:
                seen[y] = 1
                cells[tail] = y
                tail += 1
    for t in range(n_touched):
        s = touched[t]
        groups = 0
        for k in range(count):
            groups += (bits[s] >> k) & 1
        if groups >= 2:
            after = blocks[COUNT + colour, s] - groups + 1
            blocks[COUNT + colour, s] = after
            life -= groups - (after >= 2)
    big = 0
    for k in range(1, count):
        if sizes[k] > sizes[big]:
            big = k
    label = friends[big]
    moved = 0  # the stones that change label, compacted to the front of ``cells``
    for j in range(tail):
        x = cells[j]
        if blocks[GROUP, x] != label:
            blocks[GROUP, x] = label
            cells[moved] = x
            moved += 1
    blocks[LIFE, label] = life
    return moved


@kernel
def relink(board, p, blocks, links, neighbours, degree, cells, joined):
    """``links`` after the stone on ``p``: only the mover's bit changes (the enemy's groups are the
    same), next to p and, when groups joined, next to the ``joined`` stones of ``cells`` (those of
    every joined group but the largest), where a joined group counts once: there a bit can only be
    lost, so only cells that have it are looked at. A cell that loses it touched two of the joined
    groups, so one besides the largest: its stones are enough."""
    colour = board[p]
    links[p] = 0  # a stone's cell has none
    for j in range(-1, joined):
        x = p if j < 0 else cells[j]
        for d in range(degree[x]):
            y = neighbours[x, d]
            if board[y] == EMPTY and (j < 0 or links[y] & colour):
                link_colour(board, y, colour, blocks, links, neighbours, degree)
