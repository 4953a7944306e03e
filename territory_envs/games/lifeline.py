"""The rules of Lifeline, as ``docs/rules/lifeline.txt`` and ``docs/rulings.md`` read them.

Black and White place stones on the cells of a hexhex board (6 neighbours).

* A *group* is a maximal connected set of same-coloured stones. A group is *dead* if no maximal
  empty region next to it also touches another group of its colour; a lone group is dead.
* A turn: place a stone (twice on each player's first turn in the standard game), then remove all
  dead enemy groups, then all dead friendly groups. The board at the end of the turn must differ
  from the board at its start (a placement whose only removed stone is itself is illegal).
* The last player to place wins: a player to act with no legal action loses.
* ``pie="strong"`` (default): double first placements; on White's first turn White may instead
  ``swap`` (action ``H*W``): the agents exchange sides, the board stays, White (the other agent now)
  plays White's first turn. ``pie="weak"``: one stone per turn; no removal until a turn brings the
  board to four stones (removal then stays on); White may swap on its first turn, after Black's
  single stone. ``pie="komi"``: the weak opening without swap; once removal is on, White may
  ``spend_komi`` (action ``H*W+1``) instead of placing, while ``komi`` points are left and White
  also has a legal placement.

The legal mask. When every group on the board is alive (so after every turn once removal is on), a
placement on ``p`` changes the board iff p's empty region touches a friendly group: then ``p`` joins
or shares a region with a friend and lives, and otherwise ``p`` lies in a region of enemies only,
whose six neighbours form a ring of empty arcs joined by enemy runs (at most one run off the board),
so every enemy group keeps a partner across the split and nothing but ``p`` can die. That is one
region labelling, linear in the cells. A first turn's pair, when the side has no other stone, is
legal iff it lives or an enemy group is dead already (a lemma, before :func:`first_stone_mask`).
Elsewhere (the turn that switches removal on, positions holding dead groups, pairs beside other
stones of the side) the mask is computed by simulating each candidate turn exactly; the differential
tests check all of these against the reference engine.

Play is incremental in the usual turn (removal on, one stone, every group alive before it): the
regions, groups, the number of each colour's groups next to each region, the life of each group
and each colour's placements are kept from move to move (``memo``). A stone changes only its own
region and the groups it joins (:func:`usual_turn`); a removed group's cells merge with the
regions next to them (:func:`remove_dead_groups`). Any other turn is settled and analysed whole
(:func:`build_memo`); the tests compare both ways at every usual turn.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..core.batch import after_action, final_viewer, skip_game
from ..core.game import Game, GameState, Plane, check_first_turns, field_bool, field_bools, field_int
from ..core.geometry import hexhex
from ..core.kernels import (EMPTY, adjacent, any_per_component, find_root, flood_listing, has_sharing_partner,
                             is_listed, label_components, liveness, random_set_index, region_group_adjacency,
                             relabel_component, store_eight, winner_player)
from ..core.options import check_choice, check_int, check_number

PIES = ("strong", "weak", "komi")


@njit(cache=True)
def settle(board, side, on_board, neighbours, degree, links=None):
    """Remove the dead enemy groups of ``side`` (0 Black, 1 White), then its dead friendly groups.
    Returns ``(labels, count, alive, reach)`` of the final board (see ``liveness``; with ``links``,
    the final board's links go there)."""
    mover = side + 1
    enemy = 3 - mover
    labels, count, alive, reach = liveness(board, on_board, neighbours, degree, links)
    for colour in (enemy, mover):
        removed = False
        for i in range(board.shape[0]):
            if board[i] == colour and not alive[labels[i]]:
                board[i] = EMPTY
                removed = True
        if removed:  # freed cells may revive friendly groups; recompute before judging them
            labels, count, alive, reach = liveness(board, on_board, neighbours, degree, links)
    return labels, count, alive, reach


@njit(cache=True)
def describe(board, side, labels, alive, reach, on_board, alive_cell, mask):
    """From a liveness result: ``alive_cell`` (stones of living groups) and the local legal mask of
    ``side`` (empty cells whose region touches one of its groups) into ``mask``; returns whether
    every group on the board lives (the condition under which the local mask is exact) and the
    number of legal cells."""
    all_alive = True
    legal = 0
    for i in range(board.shape[0]):
        alive_cell[i] = False
        mask[i] = False
        if not on_board[i]:
            continue
        k = labels[i]
        if board[i] != EMPTY:
            alive_cell[i] = alive[k]
            if not alive[k]:
                all_alive = False
            continue
        mask[i] = reach[k, side] != -1
        legal += mask[i]
    return all_alive, legal


@njit(cache=True)
def analyse(board, side, on_board, neighbours, degree, alive_cell, links, mask, memo=None):
    """Derived facts of a position with ``side`` to move: ``links`` (per empty cell, bit ``c`` set
    when it touches two or more groups of colour ``c``), ``memo`` if given, and ``describe``'s,
    whose result it returns."""
    labels, count, alive, reach = liveness(board, on_board, neighbours, degree, links)
    if memo is not None:
        build_memo(board, labels, count, neighbours, degree, memo)
    return describe(board, side, labels, alive, reach, on_board, alive_cell, mask)


@njit(cache=True)
def play_stone(board, side, cell, removal, on_board, neighbours, degree, alive_cell, links, mask, memo):
    """Place ``side``'s stone on ``cell`` (the last stone of its turn), remove if ``removal``, and
    describe the position for the opponent (as ``analyse``, ``memo`` included). Returns
    ``describe``'s result."""
    board[cell] = side + 1
    if removal:
        labels, count, alive, reach = settle(board, side, on_board, neighbours, degree, links)
    else:
        labels, count, alive, reach = liveness(board, on_board, neighbours, degree, links)
    build_memo(board, labels, count, neighbours, degree, memo)
    return describe(board, 1 - side, labels, alive, reach, on_board, alive_cell, mask)


# --- incremental play: the facts kept from move to move ---------------------------------------------
# ``memo`` (``MEMO_DTYPE``, MEMO_BLOCKS * n + 2) holds, in blocks of n: per cell, its region's label (-1 on
# stones and off the board) | per region label, how many distinct black groups touch the region | how
# many white ones | per cell, its group's label (-1 on empty cells) | per group label, how many
# regions next to the group touch another group of its colour (the group lives iff that is
# positive) | per cell, 1 if Black may place there by the local rule (its region touches a black
# group) | the same for White | the walls (below); then how many cells each colour may place on. A
# label is one of the cells of its region or group: a group keeps it while it grows, a region while
# it shrinks, and a region whose label cell takes a stone is given another (``relabel_region``), so
# labels stay distinct. Colour c's count block is block c (``memo[c * n + region]``) and its
# placements block ``LIFE + c``.
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
EXTERIOR = 0
# int16 (every entry is a cell, a count of cells or a flag; side 15 has 841 grid cells): it is most
# of a game's memory, and a large batch's memos do not stay in cache
MEMO_DTYPE = np.int16


@njit(cache=True)
def memo_size(n):
    return MEMO_BLOCKS * n + 2


@njit(cache=True)
def set_placeable(memo, n, cell, region):
    """Both colours' placement flags of the empty ``cell`` of ``region``, and their counts."""
    for c in (1, 2):
        now = memo[c * n + region] > 0
        memo[MEMO_BLOCKS * n + c - 1] += now - memo[(LIFE + c) * n + cell]
        memo[(LIFE + c) * n + cell] = now


@njit(cache=True)
def clear_placeable(memo, n, cell):
    for c in (1, 2):
        memo[MEMO_BLOCKS * n + c - 1] -= memo[(LIFE + c) * n + cell]
        memo[(LIFE + c) * n + cell] = 0


@njit(cache=True)
def wall_of(memo, n, i):
    """The root of the wall holding the stone ``i`` (or ``EXTERIOR``)."""
    return find_root(memo[WALL * n:(WALL + 1) * n], i)


@njit(cache=True)
def build_walls(board, memo, neighbours, degree):
    """The walls of ``board`` afresh, flat: every stone's entry its wall's root (``EXTERIOR`` for a
    wall with a stone on the edge, else the wall's first cell), -1 on empty cells."""
    n = board.shape[0]
    stones = board != EMPTY
    labels, count = label_components(stones, neighbours, degree)
    on_edge = any_per_component(labels, count, stones & (degree < 6))
    root = np.full(count, -1, dtype=np.int32)
    walls = memo[WALL * n:(WALL + 1) * n]
    for i in range(n):
        k = labels[i]
        if k >= 0 and root[k] < 0:
            root[k] = EXTERIOR if on_edge[k] else i
        walls[i] = root[k] if k >= 0 else -1
    walls[EXTERIOR] = EXTERIOR


@njit(cache=True, inline='always')
def join_walls(board, p, ring, memo):
    """The stone just placed on ``p`` (ring ``ring``, see :func:`ring_of`) joins the walls of the
    runs of stones and off-board cells round it. A run is one wall already (consecutive cells of the
    ring touch, and a stone next to an off-board cell is on the edge), so its first cell is enough.
    A cell emptied by a removal is still in its old wall, and stays there (its entry may be the
    parent of others)."""
    n = board.shape[0]
    base = WALL * n
    if memo[base + p] < 0:
        memo[base + p] = p
    root = wall_of(memo, n, p)
    walled_in = True  # no empty neighbour: the whole ring is one run
    for k in range(6):
        walled_in &= not (ring[k] >= 0 and board[ring[k]] == EMPTY)
    for k in range(6):
        x = ring[k]
        before = ring[(k + 5) % 6]
        if (x < 0 or board[x] != EMPTY) and (walled_in and k == 0 or before >= 0 and board[before] == EMPTY):
            other = wall_of(memo, n, EXTERIOR if x < 0 else x)
            if other == root:
                continue
            if root == p:  # p alone so far: it hangs under the run's wall
                memo[base + p] = root = other
            else:
                memo[base + other] = root


@njit(cache=True, inline='always')
def walls_apart(board, ring, memo):
    """Before a stone goes on a cell with ring ``ring`` (see :func:`ring_of`) whose empty
    neighbours form two or more arcs: is each run of stones and off-board cells between them in a
    wall of its own? Then the arcs stay joined once the stone is placed (its region does not
    split). Otherwise two runs are in one wall, which closes a loop through the stone if the walls
    are exact (they may be coarser: see ``memo``)."""
    n = board.shape[0]
    first = second = -1  # the walls of the runs met so far (three at most)
    for k in range(6):
        x = ring[k]
        before = ring[(k + 5) % 6]
        if (x < 0 or board[x] != EMPTY) and before >= 0 and board[before] == EMPTY:  # a run begins
            root = wall_of(memo, n, EXTERIOR if x < 0 else x)
            if root == first or root == second:
                return False
            if first < 0:
                first = root
            else:
                second = root
    return True


@njit(cache=True)
def build_memo(board, labels, count, neighbours, degree, memo):
    """``memo`` for the position on ``board``, found whole (after any turn but the usual one) from
    its groups and regions as ``liveness`` labels them."""
    n = board.shape[0]
    first = np.full(count, -1, dtype=np.int32)  # each component's label: its first cell
    for i in range(n):
        k = labels[i]
        if k >= 0 and first[k] < 0:
            first[k] = i
    memo[:] = 0
    memo[REGION * n:(REGION + 1) * n] = -1
    memo[GROUP * n:(GROUP + 1) * n] = -1
    region_labels = np.full(n, -1, dtype=np.int32)
    group_labels = np.full(n, -1, dtype=np.int32)
    for i in range(n):
        k = labels[i]
        if k < 0:
            continue
        if board[i] == EMPTY:
            memo[REGION * n + i] = first[k]
            region_labels[i] = k
        else:
            memo[GROUP * n + i] = first[k]
            group_labels[i] = k
    start, pairs = region_group_adjacency(region_labels, count, group_labels, count, neighbours, degree)
    for k in range(count):
        for j in range(start[k], start[k + 1]):
            memo[board[first[pairs[j]]] * n + first[k]] += 1
    for k in range(count):
        for j in range(start[k], start[k + 1]):
            g = first[pairs[j]]
            if memo[board[g] * n + first[k]] >= 2:
                memo[LIFE * n + g] += 1
    for i in range(n):
        if memo[REGION * n + i] >= 0:
            set_placeable(memo, n, i, memo[REGION * n + i])
    build_walls(board, memo, neighbours, degree)


@njit(cache=True)
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


@njit(cache=True, inline='always')
def round_the_stone(board, mover, ring, memo, near):
    """What lies round an empty cell with neighbours ``ring`` (see :func:`ring_of`) for a stone of
    colour ``mover``: the distinct groups next to it into ``near`` (the mover's from 0, the
    enemy's from 6). Returns ``(friends, enemies, arcs, empties)``: how many of each kind of group,
    how many arcs of empty neighbours and how many empty neighbours."""
    n = board.shape[0]
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
        g = memo[GROUP * n + x]
        if board[x] == mover:
            if not is_listed(g, near, friends):
                near[friends] = g
                friends += 1
        else:
            if not is_listed(g, near[6:], enemies):
                near[6 + enemies] = g
                enemies += 1
    return friends, enemies, arcs, empties


@njit(cache=True, inline='always')
def enemies_touch_arcs(board, enemy, ring, memo):
    """Does every group of colour ``enemy`` next to the cell with ring ``ring`` touch one of its
    empty neighbours (an arc)? (A group touches an arc if one of its stones next to the cell does.)
    Then each still touches the cell's region once a stone fills the cell."""
    n = board.shape[0]
    every = True
    for k in range(6):
        x = ring[k]
        if x >= 0 and board[x] == enemy:
            touches = False
            for e in range(6):
                y = ring[e]
                if y >= 0 and board[y] == enemy and memo[GROUP * n + y] == memo[GROUP * n + x]:
                    for step in (5, 1):
                        z = ring[(e + step) % 6]
                        touches |= z >= 0 and board[z] == EMPTY
            every &= touches
    return every


@njit(cache=True)
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
    the parts are flooded: R's gift of life to the groups next to it ends, and each part gives its
    own. A stone joining two or more friendly groups also changes the other regions next to them,
    which now count them as one (:func:`join_friends`)."""
    n = board.shape[0]
    width = int(np.sqrt(n) + 0.5)  # the grid of a hexhex board is square
    mover = side + 1
    enemy = 3 - mover
    region = memo[REGION * n + p]
    mover_before = memo[mover * n + region]
    work = np.empty(8 * n + 64, dtype=np.int32)  # every scratch list, in one allocation
    ring = work[0:6]
    ring_of(p, width, neighbours, degree, ring)
    near = work[6:18]  # labels of the groups next to p: the mover's, then the enemy's
    friends, enemies, arcs, empties = round_the_stone(board, mover, ring, memo, near)
    one_part = enemies_touch_arcs(board, enemy, ring, memo)
    # and the count of the mover's groups next to R stays on the same side of 2 for every group
    # but the stone's (it rises from 1 to 2 when a lone stone joins R's only friend: a flood finds it)
    one_part &= mover_before >= 2 or friends > 0
    one_part &= empties > 0  # (no empty neighbour: R is p alone and goes)
    if one_part and arcs > 1:  # several arcs: R - p is still one region unless p closes a wall's loop
        one_part = walls_apart(board, ring, memo)
    board[p] = mover
    join_walls(board, p, ring, memo)
    memo[REGION * n + p] = -1
    clear_placeable(memo, n, p)
    alive_cell[p] = True
    cells = work[64:64 + n]
    joined_cells = cells
    dead = False
    if one_part:
        if region == p:  # R's label was p's cell: R - p takes one of its own cells
            region = relabel_region(board, p, ring, region, memo, neighbours, degree, cells)
        mover_after = mover_before - friends + 1  # the joined groups and the stone count once
        memo[mover * n + region] = mover_after
        joined = join_friends(board, p, near, friends, region, memo, neighbours, degree, cells)
        label = memo[GROUP * n + p]
        # R - p gives the joined group life as R gave each part of it
        memo[LIFE * n + label] += (mover_after >= 2) - friends * (mover_before >= 2)
        dead = memo[LIFE * n + label] <= 0
        suspects = work[34:35]  # only the joined group can die (see above)
        suspects[0] = label
    else:
        # the parts of R - p, and the groups next to each (labels before the stone joins any), in
        # one flood per part; a flooded cell's region reads -2 until its part is labelled
        stamp = work[64 + n:64 + 2 * n]  # per group label: the last list holding it
        stamp[:] = -1
        regions = memo[REGION * n:(REGION + 1) * n]
        groups = memo[GROUP * n:(GROUP + 1) * n]
        lists = work[64 + 2 * n:]  # 3 parts' lists, p's neighbours, each group once: < 4n + 24 <= 6n
        part_start = work[18:26]  # parts' cells in ``cells``
        list_start = work[26:34]  # their groups in ``lists``
        total = 0
        listed_groups = 0
        parts = 0
        for k in range(6):
            start = ring[k]
            if start < 0 or board[start] != EMPTY or memo[REGION * n + start] != region:
                continue
            part_start[parts] = total
            list_start[parts] = listed_groups
            total, listed_groups = flood_listing(board, start, region, -2, regions, groups, cells, total, stamp, parts,
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
            if stamp[g] != 7:
                stamp[g] = 7
                lists[end] = g
                end += 1
        gifts(board, memo, region, lists, distinct, end, -1)
        joined_cells = cells[total:]
        joined = join_friends(board, p, near, friends, region, memo, neighbours, degree, joined_cells)
        label = memo[GROUP * n + p]
        for q in range(parts):  # each part: its label, and its groups (the joined ones as one), counts, gifts
            part = cells[part_start[q]]
            tag = 8 + q
            stamp[label] = tag  # every part touches the stone
            lists[end] = label
            count = end + 1
            for j in range(list_start[q], list_start[q + 1]):
                g = label if is_listed(lists[j], near, friends) else lists[j]
                if stamp[g] != tag:
                    stamp[g] = tag
                    lists[count] = g
                    count += 1
            endow_region(board, memo, part, lists, end, count)
            for j in range(part_start[q], part_start[q + 1]):
                memo[REGION * n + cells[j]] = part
                set_placeable(memo, n, cells[j], part)
        dead = memo[LIFE * n + label] <= 0
        for j in range(distinct, end):  # every group that R touched lives?
            dead |= memo[LIFE * n + lists[j]] <= 0 and not is_listed(lists[j], near, friends)
        lists[end] = label
        suspects = lists[distinct:end + 1]  # the groups whose life the turn lowered
    relink(board, p, memo, links, neighbours, degree, joined_cells, joined)
    if dead:
        remove_dead_groups(board, side, memo, links, alive_cell, neighbours, degree, suspects)
    mask[:] = memo[(LIFE + enemy) * n:(LIFE + enemy + 1) * n]  # the opponent's placements
    return memo[MEMO_BLOCKS * n + enemy - 1], True  # (every group left lives: see remove_dead_groups)


@njit(cache=True)
def relabel_region(board, p, ring, region, memo, neighbours, degree, queue):
    """Give R - p (one region) the label of one of its cells, an empty neighbour of ``p``, with R's
    counts (its cells are found by their old label); returns the new label."""
    n = board.shape[0]
    label = -1
    for k in range(6):
        if ring[k] >= 0 and board[ring[k]] == EMPTY:
            label = ring[k]
            break
    relabel_component(memo[REGION * n:(REGION + 1) * n], label, region, label, queue, 0, neighbours, degree)
    for c in (1, 2):
        memo[c * n + label] = memo[c * n + region]
    return label


@njit(cache=True)
def remove_dead_groups(board, side, memo, links, alive_cell, neighbours, degree, suspects):
    """The removals of a usual turn in which a group died, from ``memo`` exact for the board with
    the stone: the enemy's groups with no life go, then the mover's that have none on the board
    left (removing enemies only merges regions, which kills no friend). Only groups whose life the
    turn lowered can die: ``suspects`` lists their labels (a label that a join retired, no longer
    its group's, is passed over). Freed cells merge with the regions next to them
    (:func:`free_cells`). Every group left lives (merged regions only give more life), so only the
    freed cells leave ``alive_cell``."""
    n = board.shape[0]
    mover = side + 1
    work = np.empty(4 * n, dtype=np.int32)
    for colour in (3 - mover, mover):
        freed = 0
        for t in range(suspects.shape[0]):
            g = suspects[t]
            if board[g] != colour or memo[GROUP * n + g] != g or memo[LIFE * n + g] > 0:
                continue
            # the group's stones, from its label's cell, lose the label (so a label listed twice is
            # passed over)
            freed = relabel_component(memo[GROUP * n:(GROUP + 1) * n], g, g, -1, work, freed, neighbours, degree)
        if freed > 0:
            for j in range(freed):
                alive_cell[work[j]] = False
            free_cells(board, work, freed, memo, links, neighbours, degree)


@njit(cache=True)
def free_cells(board, work, freed, memo, links, neighbours, degree):
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
        memo[GROUP * n + c] = -1
        memo[REGION * n + c] = -3  # freed, in no region yet
    tail = 0
    for j in range(freed):
        if memo[REGION * n + work[j]] != -3:
            continue
        first = tail  # a new region: the freed cells joined to this one, and the regions they touch
        memo[REGION * n + work[j]] = -2
        queue[tail] = work[j]
        tail += 1
        head = first
        while head < tail:
            x = queue[head]
            head += 1
            for d in range(degree[x]):
                y = neighbours[x, d]
                s = memo[REGION * n + y]
                if board[y] != EMPTY or s == -2:
                    continue
                if s == -3:
                    memo[REGION * n + y] = -2
                    queue[tail] = y
                    tail += 1
                    continue
                # absorb region s whole: its gift of life ends
                tail, listed_groups = flood_listing(board, y, s, -2, memo[REGION * n:(REGION + 1) * n],
                                                    memo[GROUP * n:(GROUP + 1) * n], queue, tail, stamp, s, groups, 0,
                                                    neighbours, degree)
                gifts(board, memo, s, groups, 0, listed_groups, -1)
        label = queue[first]
        listed_groups = 0
        for j2 in range(first, tail):
            c = queue[j2]
            memo[REGION * n + c] = label
            for d in range(degree[c]):
                z = neighbours[c, d]
                if board[z] != EMPTY:
                    g = memo[GROUP * n + z]
                    if stamp[g] != n + label:
                        stamp[g] = n + label
                        groups[listed_groups] = g
                        listed_groups += 1
        endow_region(board, memo, label, groups, 0, listed_groups)
        for j2 in range(first, tail):
            set_placeable(memo, n, queue[j2], label)
    # the freed cells' links; their empty neighbours keep theirs: an empty cell next to a dead
    # group and another group of its colour would give it life
    for j in range(freed):
        link_cell(board, work[j], memo, links, neighbours, degree)


@njit(cache=True)
def gifts(board, memo, region, groups, start, stop, sign):
    """Add ``sign`` (1 or -1) to the life of each of ``groups[start:stop]`` (distinct labels) to
    which ``region`` gives life (it touches two or more groups of that colour)."""
    n = board.shape[0]
    for t in range(start, stop):
        g = groups[t]
        memo[LIFE * n + g] += sign * (memo[board[g] * n + region] >= 2)


@njit(cache=True)
def endow_region(board, memo, region, groups, start, stop):
    """A new ``region`` touching the distinct groups ``groups[start:stop]``: its counts per colour,
    and its gift of life to each of them."""
    n = board.shape[0]
    memo[BLACK_GROUPS * n + region] = 0
    memo[WHITE_GROUPS * n + region] = 0
    for t in range(start, stop):
        memo[board[groups[t]] * n + region] += 1
    gifts(board, memo, region, groups, start, stop, 1)


@njit(cache=True)
def link_cell(board, y, memo, links, neighbours, degree):
    """``links[y]`` of the empty cell ``y`` afresh, both colours."""
    for colour in (1, 2):
        link_colour(board, y, colour, memo, links, neighbours, degree)


@njit(cache=True)
def link_colour(board, y, colour, memo, links, neighbours, degree):
    """Bit ``colour`` of ``links[y]`` afresh: the empty cell ``y`` touches two or more groups of
    that colour."""
    n = board.shape[0]
    first = -1
    linked = False
    for e in range(degree[y]):
        z = neighbours[y, e]
        if board[z] == colour:
            g = memo[GROUP * n + z]
            if first == -1:
                first = g
            elif g != first:
                linked = True
    links[y] = (links[y] & ~colour) | (colour if linked else 0)


@njit(cache=True)
def join_friends(board, p, friends, count, region, memo, neighbours, degree, cells):
    """The stone on ``p`` joins the mover's groups labelled ``friends[:count]`` into one group
    (``p`` alone, life 0, if none). With two or more, the joined group's life is the sum of theirs,
    less what each other region next to two or more of them stops giving (``region``, p's, is the
    caller's): such a region counts them as one from now on. The joined group takes the label of
    its largest part, whose stones keep it; the stones of the other parts go into ``cells``.
    Returns how many (0 when fewer than two groups join: no stone changes group)."""
    n = board.shape[0]
    if count == 0:
        memo[GROUP * n + p] = p
        memo[LIFE * n + p] = 0
        return 0
    label = friends[0]
    memo[GROUP * n + p] = label
    if count == 1:
        return 0
    colour = board[p]
    life = 0
    for k in range(count):
        life += memo[LIFE * n + friends[k]]
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
            if friends[k] == memo[GROUP * n + x]:
                bit = 1 << k
                sizes[k] += 1
        for d in range(degree[x]):
            y = neighbours[x, d]
            if board[y] == EMPTY:
                s = memo[REGION * n + y]
                if s != region and s >= 0 and bit != 0:  # (-2: a part of region being flooded)
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
            after = memo[colour * n + s] - groups + 1
            memo[colour * n + s] = after
            life -= groups - (after >= 2)
    big = 0
    for k in range(1, count):
        if sizes[k] > sizes[big]:
            big = k
    label = friends[big]
    moved = 0  # the stones that change label, compacted to the front of ``cells``
    for j in range(tail):
        x = cells[j]
        if memo[GROUP * n + x] != label:
            memo[GROUP * n + x] = label
            cells[moved] = x
            moved += 1
    memo[LIFE * n + label] = life
    return moved


@njit(cache=True)
def relink(board, p, memo, links, neighbours, degree, cells, joined):
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
                link_colour(board, y, colour, memo, links, neighbours, degree)


@njit(cache=True)
def turn_changes_board(start, side, first, second, removal, on_board, neighbours, degree):
    """Would placing ``first`` (and ``second`` if >= 0) from the board ``start``, then removing,
    leave a board different from ``start``?

    One liveness of the board with the stones placed decides, without removing anything: a dead
    enemy group is removed from cells that held its stones at the start, so the board changes;
    otherwise the friendly groups are judged on that same board, and the board changes iff a placed
    stone lives or a stone of the start dies."""
    if not removal:
        return True  # the placed stone stays
    mover = side + 1
    board = start.copy()
    board[first] = mover
    if second >= 0:
        board[second] = mover
    labels, _, alive, _ = liveness(board, on_board, neighbours, degree)
    for i in range(board.shape[0]):
        if board[i] == EMPTY:
            continue
        lives = alive[labels[i]]
        if board[i] != mover and not lives:  # a dead enemy group goes
            return True
        if board[i] == mover and lives == (start[i] == EMPTY):  # placed and lives, or old and dies
            return True
    return False


@njit(cache=True)
def exact_single_mask(board, side, removal, on_board, neighbours, degree, mask):
    for p in range(board.shape[0]):
        mask[p] = on_board[p] and board[p] == EMPTY and turn_changes_board(
            board, side, p, -1, removal, on_board, neighbours, degree)


# The first turn's masks rest on a lemma. When the side to move has no stone but its pair, no enemy
# group alive before the pair dies of it. Such a group A, were it to die, would with the regions next
# to it make a connected set of cells whose only neighbours on the board are the pair's two stones
# (a stone next to one of those regions and not in A would be the mover's, since an enemy one would
# keep A alive). The hexhex board is 3-connected (no two cells cut it apart: the tests check it), so
# that set and the pair would be the whole board, and A the only enemy group, lone and so dead before.
# A pair is therefore a legal turn iff it lives (its stones do not touch and share a region) or an
# enemy group is dead already, which stays dead whatever is added.


@njit(cache=True)
def first_stone_mask(board, side, quick, on_board, neighbours, degree, mask):
    """First stone of a double placement: legal iff some second stone completes a legal turn.
    With ``quick`` (the side has no stone on the board, as on every first turn), by the lemma above:
    iff some empty neighbour ``x`` has an empty neighbour not touching the stone (the two lone
    stones then share x's region and live), or the stone leaves an enemy group dead and a second
    empty cell remains. Otherwise the partner is searched by simulation."""
    n = board.shape[0]
    empties = 0
    for p in range(n):
        empties += on_board[p] and board[p] == EMPTY
    for p in range(n):
        mask[p] = False
        if not on_board[p] or board[p] != EMPTY:
            continue
        if quick:
            # (a lone stone of a side with no other stone dies: the board changes iff an enemy dies)
            mask[p] = has_sharing_partner(board, p, neighbours, degree) or (
                empties >= 2 and turn_changes_board(board, side, p, -1, True, on_board, neighbours, degree))
            continue
        for k in range(1, n):
            q = (p + n // 2 + k) % n
            if q != p and on_board[q] and board[q] == EMPTY and turn_changes_board(
                    board, side, p, q, True, on_board, neighbours, degree):
                mask[p] = True
                break


@njit(cache=True)
def second_stone_mask(start, side, first, quick, memo, on_board, neighbours, degree, mask):
    """Second stone of a double placement (``start``: the board before the first stone; ``memo``:
    exact for the board with it): legal iff the pair is a legal turn. With ``quick`` (the side has
    no other stone), by the lemma above: every second stone if an enemy group is dead beside the
    first, and otherwise those that do not touch the first and lie in a region next to it.
    Otherwise simulate the pair."""
    n = start.shape[0]
    enemies_alive = True
    near = np.full(6, -1, dtype=np.int32)  # the regions next to the first stone
    if quick:
        for i in range(n):
            if start[i] == 2 - side:
                enemies_alive &= memo[LIFE * n + memo[GROUP * n + i]] > 0
        for d in range(degree[first]):
            near[d] = memo[REGION * n + neighbours[first, d]]  # (-1 on a stone)
    for p in range(n):
        mask[p] = False
        if p == first or not on_board[p] or start[p] != EMPTY:
            continue
        if not quick:
            mask[p] = turn_changes_board(start, side, first, p, True, on_board, neighbours, degree)
        elif not enemies_alive:
            mask[p] = True
        else:
            mask[p] = is_listed(memo[REGION * n + p], near, 6) and not adjacent(p, first, neighbours, degree)


def _cell_words():
    """Planes 0-7 of a cell in each of its nine states, as little-endian words (byte k: plane k).
    A cell's state: 0 off the board; 1 empty, + 1 with a link of the observer's, + 2 if legal for
    the observer; 5 the observer's stone, + 1 alive; 7 the opponent's, + 1 alive. (A stone's cell
    has no link and is not legal, an empty cell is not alive, so the state gives every plane.)"""
    words = []
    for state in range(9):
        planes = [0] * 8
        planes[3] = state >= 1  # on the board
        if 1 <= state <= 4:
            planes[2], planes[6], planes[7] = 1, (state - 1) & 1, (state - 1) >> 1
        elif state >= 5:
            planes[0 if state <= 6 else 1] = 1
            planes[4 if state <= 6 else 5] = (state - 5) & 1 if state <= 6 else state - 7
        words.append(sum(int(v) << (8 * k) for k, v in enumerate(planes)))
    return tuple(words)


CELL_WORDS = _cell_words()


@njit(cache=True)
def lifeline_planes(board, alive_cell, links, on_board, mask, observer, legal_for_observer,
                    second_stone, swap, pie, removal_on, komi_plane, out):
    """Fill the observation ``out`` (H, W, 15, C-contiguous) for side ``observer`` (see PLANES);
    ``pie`` is the index in PIES. Each cell's planes are two stores of eight bytes: planes 0-7 by
    the cell's state (``CELL_WORDS``), then planes 7-14, the constants (plane 7 twice, so that no
    store runs past the cell); branch-free, since branches on random boards mispredict."""
    own = observer + 1
    opponent = 2 - observer
    flat = out.reshape(-1)
    constants = np.uint64(0)  # planes 8-14, in bytes 1-7
    for k, value in enumerate((np.int64(second_stone), np.int64(swap), np.int64(pie == 1), np.int64(pie == 2),
                               np.int64(removal_on), np.int64(komi_plane), np.int64(observer))):
        constants |= np.uint64(value) << np.uint64(8 * (k + 1))
    for i in range(out.shape[0] * out.shape[1]):
        b = board[i]
        alive = np.int64(alive_cell[i])
        legal = np.int64(legal_for_observer & (mask[i] != 0))
        state = (np.int64(on_board[i] & (b == EMPTY)) * (1 + ((links[i] >> observer) & 1) + 2 * legal)
                 + np.int64(b == own) * (5 + alive) + np.int64(b == opponent) * (7 + alive))
        store_eight(flat, 15 * i, CELL_WORDS[state])
        store_eight(flat, 15 * i + 7, constants | np.uint64(legal))


# --- a whole action, compiled: the turn logic shared by the state class and the batched env ------
# A game's scalars live in one int32 row, so one function serves a single state and a batch.
TO_MOVE, FLIP, PENDING, FIRST_BLACK, FIRST_WHITE, SWAP_USED, REMOVAL_ON, KOMI_LEFT, ALL_ALIVE, \
    TERMINAL, WINNER = range(11)
NUM_SCALARS = 11


@njit(cache=True)
def new_game(board, mask, alive_cell, links, memo, s, pie, komi, on_board, neighbours, degree):
    """Reset one game: empty board, Black to move by player_0, the pie's starting scalars, the
    first mask."""
    board[:] = EMPTY
    s[:] = 0
    s[PENDING] = -1
    s[WINNER] = -1
    s[REMOVAL_ON] = pie == 0
    s[KOMI_LEFT] = komi if pie == 2 else 0
    refresh(board, mask, alive_cell, links, memo, s, pie, on_board, neighbours, degree)


@njit(cache=True)
def swap_available(s, pie):
    return pie != 2 and s[TO_MOVE] == 1 and s[SWAP_USED] == 0 and s[FIRST_WHITE] == 0 and s[PENDING] < 0


@njit(cache=True)
def refresh(board, mask, alive_cell, links, memo, s, pie, on_board, neighbours, degree):
    """Derived facts and the legal mask of the side to move, from the board and the scalars."""
    n = board.shape[0]
    all_alive, _ = analyse(board, s[TO_MOVE], on_board, neighbours, degree, alive_cell, links, mask[:n], memo)
    s[ALL_ALIVE] = all_alive
    finish_mask(board, mask, memo, s, pie, on_board, neighbours, degree)


@njit(cache=True)
def finish_mask(board, mask, memo, s, pie, on_board, neighbours, degree):
    """The mask of the side to move, given the local mask ``describe`` left in ``mask``: exact
    where the local rule does not hold."""
    n = board.shape[0]
    side = s[TO_MOVE]
    cells = mask[:n]
    own = 0
    stones = 0
    for i in range(n):
        stones += board[i] != EMPTY
        own += board[i] == side + 1
    if s[PENDING] >= 0:
        start = board.copy()
        start[s[PENDING]] = EMPTY
        second_stone_mask(start, side, s[PENDING], own == 1, memo, on_board, neighbours, degree, cells)
    elif pie == 0 and s[FIRST_BLACK + side] == 0:
        first_stone_mask(board, side, own == 0, on_board, neighbours, degree, cells)
    elif s[REMOVAL_ON] == 0:
        if stones + 1 >= 4:  # this turn brings the fourth stone: it removes
            exact_single_mask(board, side, True, on_board, neighbours, degree, cells)
        else:
            for i in range(n):
                cells[i] = on_board[i] and board[i] == EMPTY
    elif s[ALL_ALIVE] == 0:
        exact_single_mask(board, side, True, on_board, neighbours, degree, cells)
    has_placement = False
    for i in range(n):
        if cells[i]:
            has_placement = True
            break
    mask[n] = swap_available(s, pie)
    mask[n + 1] = (pie == 2 and side == 1 and s[REMOVAL_ON] == 1 and s[KOMI_LEFT] > 0 and has_placement
                   and s[PENDING] < 0)


@njit(cache=True)
def _end_turn(mask, s, side):
    for i in range(mask.shape[0]):
        if mask[i]:
            return
    s[TERMINAL] = 1  # the player to act has no legal action: the last to place wins
    s[WINNER] = side


@njit(cache=True)
def act(board, mask, alive_cell, links, memo, s, action, pie, on_board, neighbours, degree):
    """Play one legal action: a placement, ``swap`` (``n``) or ``spend_komi`` (``n + 1``)."""
    n = board.shape[0]
    side = s[TO_MOVE]
    if action == n:  # swap: the agents exchange sides, White's first turn is still to play
        s[FLIP] ^= 1
        s[SWAP_USED] = 1
        finish_mask(board, mask, memo, s, pie, on_board, neighbours, degree)
        return
    if action == n + 1:  # spend a komi point instead of placing
        s[KOMI_LEFT] -= 1
        s[TO_MOVE] = 1 - side
        refresh(board, mask, alive_cell, links, memo, s, pie, on_board, neighbours, degree)
        _end_turn(mask, s, side)
        return
    usual = s[PENDING] < 0 and s[REMOVAL_ON] == 1 and s[ALL_ALIVE] == 1  # see usual_turn
    if s[PENDING] >= 0:
        s[PENDING] = -1
    elif pie == 0 and s[FIRST_BLACK + side] == 0:  # the first stone of a pair
        board[action] = side + 1
        s[PENDING] = action
        refresh(board, mask, alive_cell, links, memo, s, pie, on_board, neighbours, degree)
        return
    elif s[REMOVAL_ON] == 0:
        stones = 0
        for i in range(n):
            stones += board[i] != EMPTY
        if stones >= 3:  # the fourth stone: removal starts and stays on
            s[REMOVAL_ON] = 1
    if usual:
        legal, all_alive = usual_turn(board, action, side, memo, links, alive_cell, mask[:n], neighbours, degree)
    else:  # the whole position
        all_alive, legal = play_stone(board, side, action, s[REMOVAL_ON] == 1, on_board, neighbours, degree,
                                      alive_cell, links, mask[:n], memo)
    s[ALL_ALIVE] = all_alive
    s[FIRST_BLACK + side] = 1
    opponent = 1 - side
    s[TO_MOVE] = opponent
    if all_alive and s[REMOVAL_ON] == 1 and s[FIRST_BLACK + opponent] == 1:
        # the usual case: the local mask is exact, no swap; only a komi spend to settle
        mask[n] = 0
        spend = opponent == 1 and s[KOMI_LEFT] > 0 and legal > 0 and pie == 2
        mask[n + 1] = spend
        if legal == 0 and not spend:
            s[TERMINAL] = 1
            s[WINNER] = side
        return
    finish_mask(board, mask, memo, s, pie, on_board, neighbours, degree)
    _end_turn(mask, s, side)


@njit(cache=True)
def komi_plane(komi_left, points):
    return min(100, (200 * komi_left + points) // (2 * points))  # round(100 * k / points), halves up


@njit(cache=True)
def observe(board, mask, alive_cell, links, s, observer, pie, points, on_board, out):
    lifeline_planes(board, alive_cell, links, on_board, mask, observer,
                    observer == s[TO_MOVE] and s[TERMINAL] == 0, s[PENDING] >= 0, swap_available(s, pie),
                    pie, s[REMOVAL_ON], komi_plane(s[KOMI_LEFT], points), out)


PLANES = (
    Plane("own_stones", "stones of the observer"),
    Plane("opponent_stones", "stones of the opponent"),
    Plane("empty", "empty cells of the board"),
    Plane("on_board", "cells of the hexagon inside the square grid"),
    Plane("own_alive", "the observer's stones in living groups"),
    Plane("opponent_alive", "the opponent's stones in living groups"),
    Plane("own_links", "empty cells next to two or more of the observer's groups"),
    Plane("legal", "the observer's legal placements (zeros when the observer is not to move)"),
    Plane("second_stone", "constant: 1 when the next stone is the second of a double placement"),
    Plane("swap_available", "constant: 1 when the player to move may swap now"),
    Plane("pie_weak", "constant: 1 under the weak pie"),
    Plane("pie_komi", "constant: 1 under the komi pie"),
    Plane("removal_on", "constant: 1 once dead groups are removed (always under the strong pie)"),
    Plane("komi_left", "constant: White's komi points left, round(100 * k / cells) clipped to 100",
          0, 100),
    Plane("side", "constant: 0 if the observer plays Black, 1 if White"),
)


def row_fields(s) -> dict:
    """The state-dict fields (docs/spec.md) held in a scalar row ``s``, besides ``to_move`` and
    ``flip``: read by the state class and by the batched env alike."""
    return {"pending": int(s[PENDING]), "first_turn_done": [bool(s[FIRST_BLACK]), bool(s[FIRST_WHITE])],
            "swap_used": bool(s[SWAP_USED]), "removal_on": bool(s[REMOVAL_ON]), "komi_left": int(s[KOMI_LEFT])}


class LifelineGame(Game):
    """Lifeline with fixed options: ``board_size`` (cells per side of the hexhex board, 3..15,
    default 5; the designers recommend 3..12), ``pie`` (``"strong"``, ``"weak"``, ``"komi"``),
    ``komi`` (whole number of komi points for White under the komi pie, default 0), ``max_moves``."""

    name = "lifeline"
    sides = ("black", "white")
    legend = ("X a black stone, O a white stone, . an empty cell (the rows of the hexagon are indented; each "
              "row starts with its number and the letter of its first cell). There is no score: the last "
              "player to place a stone wins.")
    special_actions = ("swap", "spend_komi")
    option_defaults = {"board_size": 5, "pie": "strong", "komi": 0}
    planes = PLANES

    def _validate(self, o):
        o["board_size"] = check_int("board_size", o["board_size"], 3, 15)
        o["pie"] = check_choice("pie", o["pie"], PIES)
        o["komi"] = check_number("komi", o["komi"], integer=True, low=0, high=10_000)
        if o["komi"] != 0 and o["pie"] != "komi":
            # RULINGS: the komi option means nothing under the other pies, so a komi there is a mistake
            raise ValueError(f"option komi={o['komi']!r}: only the komi pie has komi (pie='komi'); "
                             f"pie={o['pie']!r} takes komi=0")
        self.pie_index = PIES.index(o["pie"])
        return hexhex(o["board_size"])

    def default_max_moves(self) -> int:
        return 20 * self.geometry.num_points


class LifelineState(GameState):
    """The scalars of the game (pending stone, first turns done, swap, removal, komi left) live in
    ``s``, an int32 row shared with the compiled turn logic; the attributes below read it."""

    __slots__ = ("s", "alive_cell", "links", "memo")

    def _init_extra(self):
        g = self.game
        self.s = np.zeros(NUM_SCALARS, dtype=np.int32)
        self.s[FLIP] = self.flip
        self.s[PENDING] = -1
        self.s[WINNER] = -1
        self.s[REMOVAL_ON] = g.pie_index == 0
        self.s[KOMI_LEFT] = g.options["komi"] if g.pie_index == 2 else 0

    # --- the scalars by name ------------------------------------------------------------------
    @property
    def pending(self) -> int:
        """The first stone of a double placement awaiting its second, or -1."""
        return int(self.s[PENDING])

    @property
    def first_turn_done(self) -> list:
        return [bool(self.s[FIRST_BLACK]), bool(self.s[FIRST_WHITE])]

    @property
    def swap_used(self) -> bool:
        return bool(self.s[SWAP_USED])

    @property
    def removal_on(self) -> bool:
        return bool(self.s[REMOVAL_ON])

    @property
    def komi_left(self) -> int:
        return int(self.s[KOMI_LEFT])

    @property
    def all_alive(self) -> bool:
        return bool(self.s[ALL_ALIVE])

    def _swap_available(self) -> bool:
        return bool(swap_available(self.s, self.game.pie_index))

    # --- state plumbing -----------------------------------------------------------------------
    def _extra_fields(self):
        return row_fields(self.s)

    def _load_extra(self, data):
        g = self.game
        pending = field_int(data, "pending", -1, g.num_cells - 1)
        first = field_bools(data, "first_turn_done", 2)
        komi_left = field_int(data, "komi_left", 0, g.options["komi"] if g.pie_index == 2 else 0)
        self.s = np.zeros(NUM_SCALARS, dtype=np.int32)
        self.s[:] = (self.to_move, self.flip, pending, first[0], first[1], field_bool(data, "swap_used"),
                     field_bool(data, "removal_on"), komi_left, 0, self.terminal, self.winner)
        if pending >= 0 and (self.board[pending] != self.to_move + 1 or g.pie_index != 0
                             or first[self.to_move]):
            raise ValueError("state dict: 'pending' must be -1 or the first stone of the mover's first turn "
                             "(strong pie)")
        if self.swap_used and g.pie_index == 2:
            raise ValueError("state dict: 'swap_used': the komi pie has no swap")

    def _rules_end(self):
        # the player to act with no legal action loses: the last to place wins
        return (False, -1) if self.mask.any() else (True, 1 - self.to_move)

    def _check_position(self):
        g = self.game
        check_first_turns(self.board, self.to_move, self.pending, self.first_turn_done, double=g.pie_index == 0)
        if not self.removal_on and (g.pie_index == 0 or np.count_nonzero(self.board) >= 4):
            raise ValueError("state dict: 'removal_on' must be true under the strong pie and once four stones "
                             "have been placed")
        if self.removal_on and self.pending < 0 and not self.all_alive:
            raise ValueError("state dict: 'board' has a dead group, which the last turn would have removed")

    def _clone_extra(self, new):
        new.s = self.s.copy()
        new.alive_cell = self.alive_cell.copy()
        new.links = self.links.copy()
        new.memo = self.memo.copy()

    def _refresh(self):
        g = self.game
        self.alive_cell = np.zeros(g.num_cells, dtype=np.bool_)
        self.links = np.zeros(g.num_cells, dtype=np.int8)
        self.memo = np.zeros(memo_size(g.num_cells), dtype=MEMO_DTYPE)
        refresh(self.board, self.mask, self.alive_cell, self.links, self.memo, self.s, g.pie_index, *g.kernel_args)

    def _apply(self, action):
        s = self.s
        act(self.board, self.mask, self.alive_cell, self.links, self.memo, s, action, self.game.pie_index,
            *self.game.kernel_args)
        self.to_move = int(s[TO_MOVE])
        self.flip = int(s[FLIP])
        if s[TERMINAL]:
            self.terminal = True
            self.winner = int(s[WINNER])

    def _rollout(self, seed, moves_left, trace, uniform):
        return lifeline_rollout(self.board, self.mask, self.alive_cell, self.links, self.memo, self.s, moves_left,
                                self.game.pie_index, *self.game.kernel_args, not uniform, seed, trace)

    def observation(self, player: int) -> np.ndarray:
        g = self.game
        out = np.empty(g.obs_shape, dtype=np.int8)
        observe(self.board, self.mask, self.alive_cell, self.links, self.s, player ^ self.flip, g.pie_index,
                g.geometry.num_points, g.geometry.on_board, out)
        return out

    tints = (("a stone whose group does not live", (220, 50, 50), 0.45),
             ("an empty cell touching two groups of one colour", (60, 160, 90), 0.3))

    def tint_masks(self):
        return [(self.board > 0) & ~self.alive_cell, self.links > 0]

    def _footer(self):
        parts = [super()._footer()]
        if self.pending >= 0:
            parts.append("second stone of a double placement")
        if self._swap_available():
            parts.append("swap available")
        if self.game.options["pie"] == "komi":
            parts.append(f"komi left {self.komi_left}")
        return " - ".join(p for p in parts if p)


LifelineGame.state_class = LifelineState


# --- batched play (territory_envs.vector) -------------------------------------------------------
def start_template(game):
    """The arrays of a new game of ``game`` (board, mask, alive_cell, links, memo, scalars), which
    the batch copies into a game that starts again rather than analyse the empty board each time."""
    n = game.num_cells
    arrays = (np.zeros(n, np.int8), np.zeros(n + 2, np.int8), np.zeros(n, np.bool_), np.zeros(n, np.int8),
              np.zeros(memo_size(n), MEMO_DTYPE), np.zeros(NUM_SCALARS, np.int32))
    new_game(*arrays, game.pie_index, game.options["komi"], *game.kernel_args)
    return arrays


@njit(cache=True, parallel=True)
def lifeline_batch_step(actions, board, mask, alive_cell, links, memo, scalars, move_number, pie, points,
                        max_moves, on_board, neighbours, degree, obs, rewards, terminated, truncated,
                        final_obs, final_scores, start, final_view):
    """One action in every game of the batch, in parallel; finished games record their last
    observation, then start again from ``start`` (:func:`start_template`). Lifeline has no score:
    ``final_scores`` stays 0. ``final_view`` and an action of -1 as in ``lin_batch_step``."""
    for e in prange(actions.shape[0]):
        if skip_game(e, actions, rewards, terminated, truncated):
            continue
        s = scalars[e]
        act(board[e], mask[e], alive_cell[e], links[e], memo[e], s, actions[e], pie, on_board, neighbours, degree)
        if after_action(e, s[TERMINAL] == 1, s[WINNER], s[FLIP], move_number, max_moves, mask, rewards,
                        terminated, truncated):
            final_scores[e, 0] = 0.0
            final_scores[e, 1] = 0.0
            viewer = final_viewer(final_view[e], s[TO_MOVE], s[FLIP])
            observe(board[e], mask[e], alive_cell[e], links[e], s, viewer, pie, points, on_board, final_obs[e])
            move_number[e] = 0
            board[e, :] = start[0]
            mask[e, :] = start[1]
            alive_cell[e, :] = start[2]
            links[e, :] = start[3]
            memo[e, :] = start[4]
            s[:] = start[5]
        observe(board[e], mask[e], alive_cell[e], links[e], s, s[TO_MOVE], pie, points, on_board, obs[e])


@njit(cache=True, parallel=True)
def lifeline_batch_reset(board, mask, alive_cell, links, memo, scalars, move_number, pie, komi, points, on_board,
                         neighbours, degree, obs):
    for e in prange(board.shape[0]):
        move_number[e] = 0
        new_game(board[e], mask[e], alive_cell[e], links[e], memo[e], scalars[e], pie, komi, on_board, neighbours, degree)
        observe(board[e], mask[e], alive_cell[e], links[e], scalars[e], 0, pie, points, on_board, obs[e])


# --- random playouts (agents.mcts) ----------------------------------------------------------------
@njit(cache=True)
def contested_cell(board, mask, enemy, neighbours, degree, cells):
    """A uniformly random legal cell next to a stone of colour ``enemy``, -1 if none (``cells``:
    scratch of the board's length)."""
    count = 0
    for i in range(board.shape[0]):
        if mask[i]:
            for d in range(degree[i]):
                if board[neighbours[i, d]] == enemy:
                    cells[count] = i
                    count += 1
                    break
    return cells[np.random.randint(count)] if count > 0 else -1


@njit(cache=True)
def lifeline_rollout(board, mask, alive_cell, links, memo, s, moves_left, pie, on_board, neighbours, degree,
                     contested_first, seed, trace):
    """Random legal actions from this position (copied, not changed) to the end, at most
    ``moves_left``. With ``contested_first``, the action is a uniformly random legal cell next to
    an enemy stone whenever there is one (except for the second stone of a double placement);
    otherwise it is uniform over the legal actions (swap and komi spends included). Returns
    ``(winner player or -1, actions)``: a player, not a side, because a swap moves the sides
    between the players."""
    np.random.seed(seed)
    board = board.copy()
    mask = mask.copy()
    alive_cell = alive_cell.copy()
    links = links.copy()
    memo = memo.copy()
    s = s.copy()
    cells = np.empty(board.shape[0], dtype=np.int32)
    for move in range(moves_left):
        action = -1
        if contested_first and s[PENDING] < 0:
            action = contested_cell(board, mask, 2 - s[TO_MOVE], neighbours, degree, cells)
        if action < 0:
            action = random_set_index(mask, mask.shape[0])
        if action < 0:  # cannot happen after act (it ends such games), but be safe
            return winner_player(1 - s[TO_MOVE], s[FLIP]), move
        if move < trace.shape[1]:
            trace[0, move] = action
            trace[1, move] = s[TO_MOVE] ^ s[FLIP]
        act(board, mask, alive_cell, links, memo, s, action, pie, on_board, neighbours, degree)
        if s[TERMINAL]:
            return winner_player(s[WINNER], s[FLIP]), move + 1
    return -1, moves_left
