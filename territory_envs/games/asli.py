"""The rules of Asli, as ``docs/rules/asli.txt`` and ``docs/rulings.md`` read them.

We implement the text in ``asli.txt``. A different published version of Asli exists (with a
lone-group exception and prisoners cancelling in pairs); it is not this one.

Black and White play on a square board (4 neighbours); off the board lies the prison.

* A *group* is a maximal connected set of same-coloured stones; it is *dead* if no empty region
  next to it touches another group of its colour (a lone group is dead), as in Lifeline.
* A *territory* is a maximal connected set of empty points, owned by a player if every stone next
  to it is theirs (a territory touching no stone is nobody's). An *incursion* is a placement in a
  territory of the opponent (judged before the stone lands); it is *minimal* if it sends exactly
  one enemy group to the prison.
* A turn is one of: take one enemy stone out of the prison (action ``H*W``), or place a stone and
  move every dead enemy group to the prison. Each player's first turn places twice, capturing
  after each stone; a White first turn spent on a prison removal uses the double placement up.
* At the end of a turn no friendly group may be dead. A minimal incursion is illegal right after
  the opponent's minimal incursion (a prison removal in between clears the ban; a double first
  turn is minimal if either stone was, and the ban covers both stones).
* A player with no legal action loses. A placement turn that recreates a (board, player to move)
  seen at the end of any earlier turn or at the start ends the game in a draw: a Zobrist hash of
  every turn-boundary position is kept in the state.
* Komi pie: ``komi`` black stones start in the prison, each one an extra action for White.

The legal mask. At the start of every turn after the first ones, every group is alive. A stone on
``p`` in region ``R`` changes only ``R`` and the groups around it, and the new group ``G`` touches
every part of ``R - p``: so every other friendly group next to ``R`` shares a part with it, and the
stone is legal at once if ``G`` lives before any capture (captures only merge regions). That takes
counts made in one labelling pass (:func:`asli_structure`): the distinct groups of each colour per
region, the partner regions per group, the points of ``R`` each group touches. A stone whose group
does not live is legal iff it kills enemy groups (:func:`dying_groups`: only a group whose one
partner region is ``R`` can die; the parts of ``R - p`` come from a depth-first search of ``R`` with
low-links) whose removal revives ``G`` (:func:`captures_revive`), and it is no minimal incursion
under the ban. No point is simulated, and the mask takes time linear in the cells: each point
costs constant time. A cut point of a small region (up to ``SMALL_REGION`` points) scans the
region; a large region is searched once and its contacts with enemy groups listed in discovery
order, after which each point takes constant time (:func:`dying_by_ranges`). Whether a joining or
dying group touches another friendly group is looked at directly for small groups (up to
``DIRECT_WORK`` regions and stones) and through lists made once per position for large ones
(:func:`fill_contact_lists`). First turns are simulated. Tests compare the mask with the reference
engine at every step of random games, and with simulating every point.

The labelling is kept from move to move in each game's ``memo`` (:func:`label_structure`). A
prison removal leaves it as it is. A stone changes only its own region and the groups it joins
(:func:`structure_after_stone`): its region stays whole if the stone's empty neighbours lie in one
arc round it, ends if it has none, and is flooded for its parts otherwise (on boards of 8x8 and up;
a smaller board is labelled again, which is faster there). A capture labels the board again.
Tests compare the kept structure with a fresh labelling after every action of random games.
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit, prange

from ..core.batch import after_action, final_viewer, skip_game
from ..core.game import Game, GameState, Plane, check_first_turns, field_bool, field_bools, field_int, field_ints
from ..core.geometry import square
from ..core.kernels import (EMPTY, MANY, adjacent, flood_equal, flood_listing, hash_contains, hash_insert, hash_rehash,
                             has_sharing_partner, is_listed, liveness, lowlink_arrays, lowlink_component, percent,
                             random_set_index, region_colours, regions_next_to, winner_player)
from ..core.options import check_int, check_number

NOBODY, BLACK_OWNS, WHITE_OWNS = 0, 1, 2
MAX_PRISON = 2**31 - 1  # the prison counts are int32 scalars


@njit(cache=True)
def place_and_capture(board, side, p, on_board, neighbours, degree):
    """``side`` places on ``p``; every dead enemy group goes to the prison. Returns
    ``(groups, stones, friends_alive)``: enemy groups and stones captured, and whether every
    friendly group lives afterwards."""
    mover = side + 1
    board[p] = mover
    labels, count, alive, _ = liveness(board, on_board, neighbours, degree)
    counted = np.zeros(count, dtype=np.bool_)
    groups = 0
    stones = 0
    friends_alive = True
    for i in range(board.shape[0]):
        b = board[i]
        if b == EMPTY or alive[labels[i]]:
            continue
        if b == mover:
            friends_alive = False  # unless a capture revives it: checked again below
        else:
            if not counted[labels[i]]:
                counted[labels[i]] = True
                groups += 1
            board[i] = EMPTY
            stones += 1
    if stones == 0 or friends_alive:
        return groups, stones, friends_alive
    labels, count, alive, _ = liveness(board, on_board, neighbours, degree)
    for i in range(board.shape[0]):
        if board[i] == mover and not alive[labels[i]]:
            return groups, stones, False
    return groups, stones, True


@njit(cache=True)
def is_incursion(board, side, p, on_board, neighbours, degree):
    """Is a stone of ``side`` on the empty ``p`` an incursion (p's territory owned by the opponent:
    the stones around it are all the opponent's)? A flood fill of p's region alone."""
    n = board.shape[0]
    return region_colours(board, p, neighbours, degree, np.zeros(n, dtype=np.bool_),
                          np.empty(n, dtype=np.int32)) == 2 - side


@njit(cache=True)
def single_turn_legal(board, side, p, ban, on_board, neighbours, degree):
    """Exact: is a single placement on ``p`` a legal turn?"""
    incursion = ban and is_incursion(board, side, p, on_board, neighbours, degree)
    return placement_legal(board, side, p, ban and incursion, on_board, neighbours, degree)


@njit(cache=True)
def placement_legal(board, side, p, banned_if_minimal, on_board, neighbours, degree):
    """Exact, knowing whether a minimal incursion on ``p`` would be banned (the ban is on and
    ``p`` lies in enemy territory)."""
    trial = board.copy()
    groups, _, alive = place_and_capture(trial, side, p, on_board, neighbours, degree)
    return alive and not (banned_if_minimal and groups == 1)


@njit(cache=True)
def pair_turn_legal(board, side, first, second, ban, on_board, neighbours, degree):
    """Exact: is the double placement ``first`` then ``second`` (capturing after each) legal?"""
    if ban and is_incursion(board, side, first, on_board, neighbours, degree):
        trial = board.copy()
        groups, _, _ = place_and_capture(trial, side, first, on_board, neighbours, degree)
        if groups == 1:
            return False
    trial = board.copy()
    place_and_capture(trial, side, first, on_board, neighbours, degree)
    if trial[second] != EMPTY:
        return False
    incursion = is_incursion(trial, side, second, on_board, neighbours, degree)
    groups, _, alive = place_and_capture(trial, side, second, on_board, neighbours, degree)
    return alive and not (ban and incursion and groups == 1)


@njit(cache=True)
def first_stone_mask(board, side, ban, quick, on_board, neighbours, degree, mask):
    """First stone of a double placement: legal iff some second stone completes a legal turn.
    With ``quick`` (no ban, the side has no stone: every first turn) a stone with an empty
    neighbour ``x`` that has an empty neighbour ``q`` not touching the stone is legal: the pair
    shares x's region and lives. Otherwise the partner is searched by simulation."""
    n = board.shape[0]
    for p in range(n):
        mask[p] = False
        if not on_board[p] or board[p] != EMPTY:
            continue
        if quick and has_sharing_partner(board, p, neighbours, degree):
            mask[p] = True
            continue
        for k in range(1, n):
            q = (p + n // 2 + k) % n
            if q != p and on_board[q] and board[q] == EMPTY and pair_turn_legal(
                    board, side, p, q, ban, on_board, neighbours, degree):
                mask[p] = True
                break


@njit(cache=True)
def second_stone_mask(board, side, first, ban, quick, on_board, neighbours, degree, mask):
    """Second stone (``board`` holds the first stone and its captures): legal iff the turn ends
    with every friendly group alive and, under the ban, is no minimal incursion. With ``quick``
    (no ban, no other friendly stone) a stone touching the first is illegal (the pair would be a
    lone group), and one in a region next to the first is legal at once (the two share it)."""
    labels, near = regions_next_to(board, first, on_board, neighbours, degree)
    for p in range(board.shape[0]):
        mask[p] = False
        if not on_board[p] or board[p] != EMPTY:
            continue
        if quick and adjacent(p, first, neighbours, degree):
            continue  # the pair would be the side's one group, dead whatever it captures
        if quick and near[labels[p]]:
            mask[p] = True
        else:
            mask[p] = single_turn_legal(board, side, p, ban, on_board, neighbours, degree)


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


@njit(cache=True)
def memo_size(n, max_degree):
    """Entries of a memo for ``n`` cells. Each (region, group) pair is met across its own edge
    between an empty point and a stone, so the pairs are at most the ``n * max_degree / 2`` edges."""
    return MEMO_HEAD + 10 * n + 3 + n * max_degree // 2


@njit(cache=True)
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


@njit(cache=True)
def asli_structure(board, on_board, neighbours, degree):
    """:func:`label_structure` into a new memo."""
    n = board.shape[0]
    return label_structure(board, np.empty(memo_size(n, neighbours.shape[1]), dtype=MEMO_DTYPE), on_board, neighbours,
                           degree)


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
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
    foe = 2 - side
    near = np.empty(8, dtype=np.int32)  # the friends next to p, then (from 4) the enemies cut off from r
    friends = 0
    lost = 0
    for d in range(degree[p]):
        x = neighbours[p, d]
        g = st.labels[x]
        if board[x] == side + 1 and not is_listed(g, near, friends):
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
    st.colour[joined] = side + 1
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


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
def dying_groups(board, p, foe, st, disc, low, parent, size, neighbours, degree, part_bits, dying):
    """The enemy groups that a stone on ``p`` (in region ``r``) kills, into ``dying``; returns how
    many. Only a group whose one partner region is ``r`` can die: it dies if the parts of ``r - p``
    it touches hold no other enemy group. ``disc, low, parent, size``: a depth-first search of
    ``r`` with low-links (:func:`lowlink_component`): the parts are the subtrees of p's children
    that p cuts off, and the rest of ``r`` when p is not the root. This way scans ``r`` at a cut
    point (and for a group next to p), which is fast for small regions; :func:`dying_by_ranges`
    gives the same answer in constant time per point for large ones. ``part_bits`` (per group,
    all zero) is scratch."""
    r = st.labels[p]
    foe_colour = foe + 1
    cut_off = np.empty(4, dtype=np.int32)  # the children whose subtrees become parts of their own
    kept = np.empty(4, dtype=np.int32)
    n_cut, _ = children_of(board, p, disc, low, parent, neighbours, degree, cut_off, kept)
    parts = n_cut + (parent[p] >= 0)
    count = 0
    if parts == 1:
        # r - p stays one region: an enemy group touching r at p alone loses it; with two or more
        # enemy groups left in r - p these keep it as a partner region, with fewer none does
        remaining = st.per_colour[r, foe]
        for d in range(degree[p]):
            nb = neighbours[p, d]
            if board[nb] != foe_colour or seen_group_before(board, st.labels, neighbours, p, d):
                continue
            g = st.labels[nb]
            if not touches_elsewhere(board, st, r, g, p, neighbours, degree):
                remaining -= 1
                if st.partners[g] == 1:
                    dying[count] = g
                    count += 1
        if remaining < 2:
            count = all_dependents(st, r, foe_colour, dying)  # every group that had r alone dies
        return count
    # r is p alone (no parts) or p cuts r: which parts does each enemy group touch?
    for j in range(st.region_offsets[r], st.region_offsets[r + 1]):
        v = st.region_cells[j]
        if v == p:
            continue
        part = n_cut  # the rest of r, unless v lies in a cut-off subtree
        for i in range(n_cut):
            c = cut_off[i]
            if disc[c] <= disc[v] < disc[c] + size[c]:
                part = i
        for e in range(degree[v]):
            nb = neighbours[v, e]
            if board[nb] == foe_colour:
                part_bits[st.labels[nb]] |= 1 << part
    per_part = np.zeros(5, dtype=np.int32)
    for j in range(st.pair_start[r], st.pair_start[r + 1]):
        g = st.pair_group[j]
        if st.colour[g] == foe_colour:
            for b in range(parts):
                per_part[b] += (part_bits[g] >> b) & 1
    for j in range(st.pair_start[r], st.pair_start[r + 1]):
        g = st.pair_group[j]
        if st.colour[g] == foe_colour:
            if st.partners[g] == 1:
                keeps = False
                for b in range(parts):
                    keeps = keeps or ((part_bits[g] >> b) & 1 == 1 and per_part[b] >= 2)
                if not keeps:
                    dying[count] = g
                    count += 1
            part_bits[g] = 0
    return count


@njit(cache=True)
def children_of(board, p, disc, low, parent, neighbours, degree, cut_off, kept):
    """p's children in the search tree, split into ``cut_off`` (their subtrees become parts of
    ``r - p`` of their own: ``low[c] >= disc[p]``, or every child of the root) and ``kept``
    (joined to the rest through p's parent). Returns the two counts."""
    n_cut = 0
    n_kept = 0
    for d in range(degree[p]):
        c = neighbours[p, d]
        if board[c] == EMPTY and parent[c] == p:
            if parent[p] < 0 or low[c] >= disc[p]:
                cut_off[n_cut] = c
                n_cut += 1
            else:
                kept[n_kept] = c
                n_kept += 1
    return n_cut, n_kept


@njit(cache=True)
def all_dependents(st, r, foe_colour, dying):
    """Every enemy group whose one partner region is ``r``, into ``dying``; returns how many."""
    count = 0
    for j in range(st.pair_start[r], st.pair_start[r + 1]):
        g = st.pair_group[j]
        if st.colour[g] == foe_colour and st.partners[g] == 1:
            dying[count] = g
            count += 1
    return count


@njit(cache=True)
def event_arrays(block, n, max_degree):
    """The arrays of :func:`region_events` as views of one block of ``n + 1 + 2 * n * max_degree``
    entries and one per group: ``(ev_first, ev_group, next_other, g_events)``."""
    events = n * max_degree
    at = n + 1
    return block[:at], block[at:at + events], block[at + events:at + 2 * events], block[at + 2 * events:]


@njit(cache=True)
def region_events(board, r, foe_colour, st, visit, base, end, neighbours, degree, block):
    """The *events* of region ``r`` (searched depth first, its points numbered ``base..end - 1``
    in discovery order, ``visit[k]`` the point numbered k): the (point, enemy group next to it)
    pairs in that order, in time linear in the region and its contacts.

    * the events of the points numbered ``a..b - 1`` are ``ev_first[a]..ev_first[b] - 1``;
    * ``next_other[e]``: the first later event of another group, so two or more enemy groups
      touch a range of points iff ``next_other`` of its first event lies inside it;
    * ``g_events[g]``: how many events group ``g`` has (the points of r it touches).

    The four arrays are views of ``block`` (:func:`event_arrays`)."""
    ev_first, ev_group, next_other, g_events = event_arrays(block[:-1], board.shape[0], neighbours.shape[1])
    events = 0
    for k in range(base, end):
        v = visit[k]
        ev_first[k] = events
        for d in range(degree[v]):
            nb = neighbours[v, d]
            if board[nb] == foe_colour and not seen_group_before(board, st.labels, neighbours, v, d):
                ev_group[events] = st.labels[nb]
                events += 1
    ev_first[end] = events
    following = events
    for e in range(events - 1, -1, -1):
        if e + 1 < events and ev_group[e + 1] != ev_group[e]:
            following = e + 1
        next_other[e] = following
    for j in range(st.pair_start[r], st.pair_start[r + 1]):
        g_events[st.pair_group[j]] = 0
    for e in range(events):
        g_events[ev_group[e]] += 1


@njit(cache=True)
def seen_group_before(board, labels, neighbours, v, d):
    """Is neighbour ``d`` of ``v`` a stone of a group already met among v's earlier neighbours?"""
    nb = neighbours[v, d]
    for e in range(d):
        other = neighbours[v, e]
        if board[other] == board[nb] and labels[other] == labels[nb]:
            return True
    return False


@njit(cache=True)
def range_groups(ev_group, next_other, x, y):
    """The enemy groups of the events ``x..y - 1``: -1 for none, the group if one, else MANY."""
    if x >= y:
        return -1
    if next_other[x] < y:
        return MANY
    return ev_group[x]


@njit(cache=True)
def dying_by_ranges(board, p, foe, st, disc, low, parent, size, visit, end, block, neighbours, degree, dying):
    """:func:`dying_groups` for a large region, with its :func:`region_events`: each part of
    ``r - p`` is a few ranges of discovery numbers (a cut-off subtree; the rest: before p, the kept
    subtrees, after p's subtree), so its enemy groups (none, one, or more) and its number of events
    take constant time. A dependent group dies iff every point of r it touches is p or lies in a
    part that holds it alone: it is next to p or the one group of a part, and its events add up.
    So each point takes constant time. ``end``: the next discovery number after r's; ``block``
    holds r's events (its last entry says whose: they are listed on the first call for a
    region)."""
    r = st.labels[p]
    base = end - (st.region_offsets[r + 1] - st.region_offsets[r])
    if block[-1] != r:
        region_events(board, r, foe + 1, st, visit, base, end, neighbours, degree, block)
        block[-1] = r
    ev_first, ev_group, next_other, g_events = event_arrays(block[:-1], board.shape[0], neighbours.shape[1])
    foe_colour = foe + 1
    cut_off = np.empty(4, dtype=np.int32)
    kept = np.empty(4, dtype=np.int32)
    n_cut, n_kept = children_of(board, p, disc, low, parent, neighbours, degree, cut_off, kept)
    has_rest = parent[p] >= 0
    candidates = np.empty(4 + 5, dtype=np.int32)  # the groups that may die: p's enemy neighbours first
    at_p = 0
    for d in range(degree[p]):
        nb = neighbours[p, d]
        if board[nb] == foe_colour and not seen_group_before(board, st.labels, neighbours, p, d):
            candidates[at_p] = st.labels[nb]
            at_p += 1
    if n_cut + has_rest == 1:  # r - p stays one region: as in dying_groups, with event counts
        remaining = st.per_colour[r, foe]
        count = 0
        for i in range(at_p):
            g = candidates[i]
            if g_events[g] == 1:  # r touches g at p alone
                remaining -= 1
                if st.partners[g] == 1:
                    dying[count] = g
                    count += 1
        return count if remaining >= 2 else all_dependents(st, r, foe_colour, dying)
    # per part: its enemy groups (as range_groups) and its number of events
    part_group = np.empty(5, dtype=np.int32)
    part_events = np.empty(5, dtype=np.int32)
    parts = 0
    for i in range(n_cut):
        c = cut_off[i]
        x, y = ev_first[disc[c]], ev_first[disc[c] + size[c]]
        part_group[parts] = range_groups(ev_group, next_other, x, y)
        part_events[parts] = y - x
        parts += 1
    if has_rest:
        rest_lo = np.empty(6, dtype=np.int32)
        rest_hi = np.empty(6, dtype=np.int32)
        rest_lo[0], rest_hi[0] = ev_first[base], ev_first[disc[p]]
        rest_lo[1], rest_hi[1] = ev_first[disc[p] + size[p]], ev_first[end]
        n_rest = 2
        for i in range(n_kept):
            k = kept[i]
            rest_lo[n_rest], rest_hi[n_rest] = ev_first[disc[k]], ev_first[disc[k] + size[k]]
            n_rest += 1
        rest = -1
        events = 0
        for i in range(n_rest):
            here = range_groups(ev_group, next_other, rest_lo[i], rest_hi[i])
            if here == MANY or (here >= 0 and rest >= 0 and here != rest):
                rest = MANY
            elif here >= 0 and rest == -1:
                rest = here
            events += rest_hi[i] - rest_lo[i]
        part_group[parts] = rest
        part_events[parts] = events
        parts += 1
    # then the one group of each part holding one
    listed = at_p
    for q in range(parts):
        g = part_group[q]
        if g >= 0 and g != MANY and not is_listed(g, candidates, listed):
            candidates[listed] = g
            listed += 1
    count = 0
    for i in range(listed):
        g = candidates[i]
        if st.partners[g] != 1:
            continue
        alone = 1 if i < at_p else 0  # its event at p
        for q in range(parts):
            if part_group[q] == g:
                alone += part_events[q]
        if alone == g_events[g]:
            dying[count] = g
            count += 1
    return count


DIRECT_WORK = 16  # regions (and stones) of the groups a point looks at directly; more: through lists
CONTACTS = 5  # one more than the friendly groups a stone can join: a full list names a group outside them


@njit(cache=True)
def contact_lists_room(st):
    """Room for :func:`fill_contact_lists`, not yet filled."""
    lists = np.empty((1 + st.n_regions + st.n_groups, 1 + CONTACTS), dtype=np.int32)
    lists[0, 0] = 0
    return lists


@njit(cache=True)
def fill_contact_lists(lists, st, me):
    """Which friendly groups (colour ``me + 1``) touch which, listed once per position (on the
    first question about large groups) so that a point joining or killing large groups costs
    constant time and the mask stays linear:

    * for each region, its first ``CONTACTS`` friendly groups;
    * for each friendly group, the first ``CONTACTS`` friendly groups that share a region with it
      (itself among them); an enemy group's list is made when it first dies
      (:func:`captures_revive_listed`) and has length -1 until then.

    Row 0 says whether the lists are filled, row ``1 + r`` lists region ``r``'s friendly groups,
    row ``1 + n_regions + g`` group ``g``'s contacts; column 0 holds a list's length, the next
    ``CONTACTS`` its groups. A list of ``CONTACTS`` groups always names one that a stone does
    not join."""
    if lists[0, 0] == 1:
        return
    lists[0, 0] = 1
    top = 1 + st.n_regions  # the groups' rows
    for g in range(st.n_groups):
        if st.colour[g] == me + 1:
            lists[top + g, 0] = 1
            lists[top + g, 1] = g
        else:
            lists[top + g, 0] = -1
    for r in range(st.n_regions):
        near = 1 + r
        lists[near, 0] = 0
        first, last = st.pair_start[r], st.pair_start[r + 1]
        for j in range(first, last):
            if st.colour[st.pair_group[j]] == me + 1:
                add_contact(lists, near, st.pair_group[j])
        if lists[near, 0] < 2:
            continue  # its one friend is listed already
        for j in range(first, last):
            g = st.pair_group[j]
            if st.colour[g] == me + 1:
                for k in range(lists[near, 0]):
                    add_contact(lists, top + g, lists[near, 1 + k])


@njit(cache=True)
def add_contact(lists, row, f):
    """Put group ``f`` in list ``row`` unless it is there or the list is full."""
    k = lists[row, 0]
    if k == CONTACTS:
        return
    for i in range(1, k + 1):
        if lists[row, i] == f:
            return
    lists[row, k + 1] = f
    lists[row, 0] = k + 1


@njit(cache=True)
def lists_name_another(lists, row, friends, n_friends):
    """Does list ``row`` name a group other than ``friends``?"""
    for k in range(1, lists[row, 0] + 1):
        if not is_listed(lists[row, k], friends, n_friends):
            return True
    return False


@njit(cache=True)
def joined_groups_live(st, me, r, friends, n_friends, group_start, group_regions, direct_work):
    """A stone in region ``r`` joins ``friends``, every friendly group next to ``r`` (two or more):
    does the joined group live before captures, that is, does one of the friends share another
    region with a friendly group that does not join? 1 or 0; -1 (not looked at) when the friends
    have more than ``direct_work`` regions, as this look takes up to the square of that
    (:func:`joined_groups_live_listed` then)."""
    joined_regions = 0
    for i in range(n_friends):
        joined_regions += group_start[friends[i] + 1] - group_start[friends[i]]
    if joined_regions > direct_work:
        return -1
    for i in range(n_friends):
        for j in range(group_start[friends[i]], group_start[friends[i] + 1]):
            r2 = group_regions[j]
            if r2 != r and friend_outside(st, me, r2, friends, n_friends, group_start, group_regions):
                return 1
    return 0


@njit(cache=True)
def joined_groups_live_listed(st, me, friends, n_friends, lists):
    """:func:`joined_groups_live` through the lists of :func:`fill_contact_lists`."""
    fill_contact_lists(lists, st, me)
    for i in range(n_friends):
        if lists_name_another(lists, 1 + st.n_regions + friends[i], friends, n_friends):
            return True
    return False


@njit(cache=True)
def friend_outside(st, me, r2, friends, n_friends, group_start, group_regions):
    """Does region ``r2`` touch a friendly group other than ``friends`` (more friendly groups
    than the friends next to it)?"""
    joined = 0
    for f in range(n_friends):
        for k in range(group_start[friends[f]], group_start[friends[f] + 1]):
            joined += group_regions[k] == r2
    return st.per_colour[r2, me] > joined


@njit(cache=True)
def captures_revive(board, me, r, friends, n_friends, st, dying, n_dying, group_start, group_regions, neighbours,
                    degree, direct_work):
    """A stone in region ``r`` joins ``friends`` (every friendly group next to ``r``, maybe none)
    into a group ``G`` that has no partner region, and kills the groups ``dying``. Each dying group
    touches ``r``, so once it is gone its points, the regions next to it and the parts of ``r``
    next to it make one region next to ``G``: ``G`` lives iff a dying group touches a friendly
    group outside ``G``, next to its stones or in a region next to it. 1 or 0; -1 (not looked at)
    when the groups have more than ``direct_work`` stones and regions
    (:func:`captures_revive_listed` then)."""
    work = 0
    for i in range(n_friends):
        work += group_start[friends[i] + 1] - group_start[friends[i]]
    for i in range(n_dying):
        c = dying[i]
        work += st.group_offsets[c + 1] - st.group_offsets[c] + group_start[c + 1] - group_start[c]
    if work > direct_work:
        return -1
    for i in range(n_dying):
        c = dying[i]
        for j in range(st.group_offsets[c], st.group_offsets[c + 1]):
            v = st.group_cells[j]
            for d in range(degree[v]):
                nb = neighbours[v, d]
                if board[nb] == me + 1 and not is_listed(st.labels[nb], friends, n_friends):
                    return 1
        for j in range(group_start[c], group_start[c + 1]):
            r2 = group_regions[j]
            if r2 != r and friend_outside(st, me, r2, friends, n_friends, group_start, group_regions):
                return 1
    return 0


@njit(cache=True)
def captures_revive_listed(board, me, friends, n_friends, st, dying, n_dying, lists, neighbours, degree):
    """:func:`captures_revive` through the lists of :func:`fill_contact_lists`: a dying group's
    list is made the first time it is asked about (its stones' friendly neighbours and its
    regions' friends)."""
    fill_contact_lists(lists, st, me)
    top = 1 + st.n_regions
    for i in range(n_dying):
        c = dying[i]
        if lists[top + c, 0] < 0:
            lists[top + c, 0] = 0
            for j in range(st.group_offsets[c], st.group_offsets[c + 1]):
                v = st.group_cells[j]
                for d in range(degree[v]):
                    nb = neighbours[v, d]
                    if board[nb] == me + 1:
                        add_contact(lists, top + c, st.labels[nb])
                    elif board[nb] == EMPTY:
                        near = 1 + st.labels[nb]
                        for k in range(1, lists[near, 0] + 1):
                            add_contact(lists, top + c, lists[near, k])
        if lists_name_another(lists, top + c, friends, n_friends):
            return True
    return False


@njit(cache=True)
def analyse_structure(board, side, ban, single, st, on_board, neighbours, degree, mask, owner, danger,
                      small_region=SMALL_REGION, direct_work=DIRECT_WORK):
    """Derived facts and, if ``single``, the legal placements of ``side`` for a single-stone turn,
    from :func:`asli_structure` of ``board``.

    ``owner`` per empty point: NOBODY, BLACK_OWNS, WHITE_OWNS (its territory's owner); ``danger``
    per stone: its group lives through one region only. Returns ``(all_alive, legal, simulated)``:
    whether every group lives, the number of legal points and how many needed simulation.

    The rule for a stone on ``p`` in region ``r`` when every group lives (the start of every
    single-stone turn): the new group ``G`` (the stone and the friendly groups next to it) touches
    every part of ``r - p``, so every other friendly group next to ``r`` shares a part with it and
    lives, and captures only merge regions. So the stone is legal if ``G`` lives before any capture
    (a friendly group in ``r`` does not join it, or it extends one group, which keeps its partner
    region elsewhere, or the joining groups have a partner elsewhere), and otherwise iff it kills
    enemy groups (:func:`dying_groups`) whose removal revives ``G`` (:func:`captures_revive`) and
    it is not a minimal incursion under the ban. Other positions (a hand-made state with a dead
    group) are simulated point by point.

    ``small_region`` and ``direct_work`` choose between two ways to the same answer by size (the
    scan or the event ranges of a region, the direct look or the contact lists for groups); the
    tests set them to 0 and to a large number to check each way alone.
    """
    n = board.shape[0]
    all_alive = True
    for g in range(st.n_groups):
        if st.partners[g] == 0:
            all_alive = False
    owner[:] = NOBODY
    danger[:] = False
    for r in range(st.n_regions):
        black, white = st.per_colour[r, 0], st.per_colour[r, 1]
        if (black > 0) != (white > 0):
            for j in range(st.region_offsets[r], st.region_offsets[r + 1]):
                owner[st.region_cells[j]] = BLACK_OWNS if black > 0 else WHITE_OWNS
    for g in range(st.n_groups):
        if st.partners[g] == 1:
            for j in range(st.group_offsets[g], st.group_offsets[g + 1]):
                danger[st.group_cells[j]] = True
    if not single:
        return all_alive, 0, 0
    me = side
    foe = 1 - side
    # enemy groups for which region r is the only partner region: only they can die by a stone in r
    dependent = np.zeros(max(st.n_regions, 1), dtype=np.int32)
    for r in range(st.n_regions):
        if st.per_colour[r, foe] >= 2:
            for j in range(st.pair_start[r], st.pair_start[r + 1]):
                g = st.pair_group[j]
                dependent[r] += st.colour[g] == foe + 1 and st.partners[g] == 1
    friends = np.empty(4, dtype=np.int32)
    # built when first needed: the regions of each group; low-links of the regions searched so far
    group_start = np.empty(0, dtype=np.int32)
    group_regions = group_start
    lists = contact_lists_room(st)  # filled for large groups only
    disc = group_start
    low, parent, size, next_nb, stack, visit = disc, disc, disc, disc, disc, disc
    member = np.empty(0, dtype=np.bool_)
    part_bits = group_start
    dying = group_start
    events = group_start  # region_events' arrays in one block (large regions only)
    clock = 0
    legal = 0
    simulated = 0
    mask[:] = False
    for r in range(st.n_regions):
        first, last = st.region_offsets[r], st.region_offsets[r + 1]
        incursion = st.per_colour[r, me] == 0 and st.per_colour[r, foe] > 0  # judged before the stone
        friends_here = st.per_colour[r, me]
        if all_alive and (friends_here == 1 or friends_here > neighbours.shape[1]):
            # a stone here extends the one friend or shares r with it; or more friends than a stone
            # can join: one is left to share a part with it
            for j in range(first, last):
                mask[st.region_cells[j]] = True
            legal += last - first
            continue
        if all_alive and friends_here == 0 and dependent[r] == 0:
            continue  # lone stones that capture nothing
        for j in range(first, last):
            p = st.region_cells[j]
            if not all_alive:  # not the start of a single-stone turn (a state given by hand)
                simulated += 1
                mask[p] = placement_legal(board, side, p, ban and incursion, on_board, neighbours, degree)
                legal += mask[p]
                continue
            n_friends = 0
            for d in range(degree[p]):
                nb = neighbours[p, d]
                if board[nb] == me + 1 and not is_listed(st.labels[nb], friends, n_friends):
                    friends[n_friends] = st.labels[nb]
                    n_friends += 1
            if st.per_colour[r, me] > n_friends or n_friends == 1:
                mask[p] = True  # a friend in r - p shares a part with G, or G extends a living group
                legal += 1
                continue
            # from here the friends next to p are all the friends next to r (none for a lone stone)
            if (n_friends >= 2 or dependent[r] > 0) and group_start.shape[0] == 0:
                group_start, group_regions = regions_per_group(st)
            if n_friends >= 2:
                lives = joined_groups_live(st, me, r, friends, n_friends, group_start, group_regions, direct_work)
                if lives < 0:  # large groups
                    lives = joined_groups_live_listed(st, me, friends, n_friends, lists)
                if lives:
                    mask[p] = True
                    legal += 1
                    continue
            if dependent[r] == 0:
                continue  # G is dead and captures nothing
            if disc.shape[0] == 0:
                disc, low, parent, size, next_nb, stack, visit = lowlink_arrays(n)
                member = on_board & (board == EMPTY)
                part_bits = np.zeros(max(st.n_groups, 1), dtype=np.int32)
                dying = np.empty(max(st.n_groups, 1), dtype=np.int32)
            if disc[st.region_cells[first]] < 0:
                clock = lowlink_component(member, st.region_cells[first], neighbours, degree, disc, low, parent, size,
                                          next_nb, stack, visit, clock)
            if last - first > small_region:
                if events.shape[0] == 0:
                    events = np.full(n + 2 + 2 * n * neighbours.shape[1] + max(st.n_groups, 1), -1, dtype=np.int32)
                n_dying = dying_by_ranges(board, p, foe, st, disc, low, parent, size, visit, clock, events, neighbours,
                                          degree, dying)
            else:
                n_dying = dying_groups(board, p, foe, st, disc, low, parent, size, neighbours, degree, part_bits,
                                       dying)
            if n_dying == 0 or (ban and incursion and n_dying == 1):
                continue  # no capture, or a banned minimal incursion
            revives = captures_revive(board, me, r, friends, n_friends, st, dying, n_dying, group_start, group_regions,
                                      neighbours, degree, direct_work)
            if revives < 0:  # large groups
                revives = captures_revive_listed(board, me, friends, n_friends, st, dying, n_dying, lists, neighbours,
                                                 degree)
            if revives:
                mask[p] = True
                legal += 1
    return all_alive, legal, simulated


@njit(cache=True)
def zobrist_hash(board, side, keys, side_key):
    h = np.uint64(0)
    for i in range(board.shape[0]):
        if board[i] != EMPTY:
            h ^= keys[i, board[i] - 1]
    if side == 1:
        h ^= side_key
    return h if h != 0 else np.uint64(1)  # 0 marks a free slot in the position table


@njit(cache=True)
def asli_planes(board, owner, danger, mask, observer, legal_for_observer, own_prisoners,
                opponent_prisoners, ban, second_stone, out):
    """Fill the observation ``out`` (H, W, 14) for side ``observer`` (see PLANES)."""
    height, width = out.shape[0], out.shape[1]
    own = observer + 1
    opponent = 2 - observer  # a colour, and the owner code of its territories
    # bitwise, not ``and``: short-circuit branches on random boards mispredict
    for r in range(height):
        for c in range(width):
            i = r * width + c
            b = board[i]
            out[r, c, 0] = b == own
            out[r, c, 1] = b == opponent
            out[r, c, 2] = b == EMPTY
            out[r, c, 3] = 1
            out[r, c, 4] = owner[i] == own
            out[r, c, 5] = owner[i] == opponent
            out[r, c, 6] = (b == own) & danger[i]
            out[r, c, 7] = (b == opponent) & danger[i]
            out[r, c, 8] = legal_for_observer & (mask[i] != 0)
            out[r, c, 9] = own_prisoners
            out[r, c, 10] = opponent_prisoners
            out[r, c, 11] = ban
            out[r, c, 12] = second_stone
            out[r, c, 13] = observer


# --- a whole action, compiled: the turn logic shared by the state class and the batched env ------
TO_MOVE, FLIP, PRISON_BLACK, PRISON_WHITE, PENDING, PENDING_MINIMAL, FIRST_BLACK, FIRST_WHITE, \
    LAST_MINIMAL, TERMINAL, WINNER, SEEN_COUNT = range(12)
NUM_SCALARS = 12
ROLLOUT_TESTS = 6  # candidates a playout turn tests before it asks the exact mask
# A stone that may split its region: from this many cells (8x8) the flood of its region finds the
# parts sooner than labelling the board; below, labelling is sooner (the "a stone's structure" rows
# of benchmarks/diagnostics/asli_cost.py; docs/design/asli.md has the figures)
FLOOD_PARTS_FROM = 64


@njit(cache=True)
def compute_mask(board, mask, owner, danger, s, memo, on_board, neighbours, degree):
    """Legal actions of the side to move (the derived planes come along), the board's structure
    labelled into ``memo``."""
    mask_from_structure(board, mask, owner, danger, s, label_structure(board, memo, on_board, neighbours, degree),
                        on_board, neighbours, degree)


@njit(cache=True, inline='always')
def mask_from_structure(board, mask, owner, danger, s, structure, on_board, neighbours, degree):
    """:func:`compute_mask` with the board's :func:`asli_structure` already labelled."""
    n = board.shape[0]
    side = s[TO_MOVE]
    cells = mask[:n]
    double = s[FIRST_BLACK + side] == 0
    ban = s[LAST_MINIMAL] == 1
    analyse_structure(board, side, ban, not double, structure, on_board, neighbours, degree, cells, owner, danger)
    if double:
        own = 0
        for i in range(n):
            own += board[i] == side + 1
        if s[PENDING] >= 0:
            second_stone_mask(board, side, s[PENDING], ban, not ban and own == 1, on_board, neighbours, degree, cells)
        else:
            first_stone_mask(board, side, ban, not ban and own == 0, on_board, neighbours, degree, cells)
    mask[n] = s[PENDING] < 0 and s[PRISON_BLACK + 1 - side] > 0


@njit(cache=True, inline='always')
def _end_turn(board, mask, owner, danger, s, seen, side, minimal, placement, structure, keys, side_key, on_board,
              neighbours, degree):
    s[LAST_MINIMAL] = minimal
    s[TO_MOVE] = 1 - side
    h = zobrist_hash(board, 1 - side, keys, side_key)
    if placement and hash_contains(seen, h):  # the position recurs: a draw
        s[TERMINAL] = 1
        s[WINNER] = -1
        mask_from_structure(board, mask, owner, danger, s, structure, on_board, neighbours, degree)
        return
    if hash_insert(seen, h):
        s[SEEN_COUNT] += 1
    mask_from_structure(board, mask, owner, danger, s, structure, on_board, neighbours, degree)
    for i in range(mask.shape[0]):
        if mask[i]:
            return
    s[TERMINAL] = 1  # no legal action: the last to act wins
    s[WINNER] = side


OUT_TO_MOVE, OUT_OVER, OUT_PRISON = 1, 2, 4  # the bits of an act's outcome


@njit(cache=True)
def outcome(s, prison_moved):
    """An act's result in one int: the side to move (``OUT_TO_MOVE``), the game over
    (``OUT_OVER``), stones moved into or out of the prison (``OUT_PRISON``)."""
    return s[TO_MOVE] * OUT_TO_MOVE + (s[TERMINAL] == 1) * OUT_OVER + prison_moved * OUT_PRISON


@njit(cache=True)
def current_structure(board, memo, on_board, neighbours, degree):
    """The structure of ``board``: the one kept in ``memo`` if it is valid, else labelled there."""
    if memo[MEMO_VALID] == 1:
        return structure_view(memo, board.shape[0], neighbours.shape[1])
    return label_structure(board, memo, on_board, neighbours, degree)


@njit(cache=True)
def act(board, mask, owner, danger, s, seen, memo, action, keys, side_key, on_board, neighbours, degree):
    """Play one legal action (a placement, or ``remove_prisoner`` = ``n``); returns
    :func:`outcome` (so a Python caller reads no scalar back). ``seen`` must keep a free slot (the
    caller grows it). ``memo`` holds the board's structure (:func:`label_structure`), or is marked
    invalid; it is brought up to date."""
    n = board.shape[0]
    side = s[TO_MOVE]
    if action == n:  # take an enemy stone out of the prison: a whole turn, the board unchanged
        s[PRISON_BLACK + 1 - side] -= 1
        s[FIRST_BLACK + side] = 1
        _end_turn(board, mask, owner, danger, s, seen, side, False, False,
                  current_structure(board, memo, on_board, neighbours, degree), keys, side_key, on_board, neighbours,
                  degree)
        return outcome(s, True)
    incursion = owner[action] == 2 - side  # the territory's owner before the stone lands
    # the structure after the stone shows the dead enemy groups; it serves the next mask too
    # unless stones were captured. It follows from the one before, by a flood of p's region at most
    arcs = arcs_round(board, action)
    if n >= FLOOD_PARTS_FROM or arcs < 2:
        before = current_structure(board, memo, on_board, neighbours, degree)
        board[action] = side + 1
        structure = structure_after_stone(before, memo, board, action, side, arcs, neighbours, degree)
    else:
        board[action] = side + 1
        structure = label_structure(board, memo, on_board, neighbours, degree)
    groups, stones = capture_dead(board, 2 - side, structure)
    if stones > 0:
        structure = label_structure(board, memo, on_board, neighbours, degree)
    s[PRISON_BLACK + 1 - side] += stones
    minimal = incursion and groups == 1
    if s[PENDING] < 0 and s[FIRST_BLACK + side] == 0:  # the first stone of a pair
        s[PENDING] = action
        s[PENDING_MINIMAL] = minimal
        mask_from_structure(board, mask, owner, danger, s, structure, on_board, neighbours, degree)
        return outcome(s, stones > 0)
    minimal = minimal or (s[PENDING] >= 0 and s[PENDING_MINIMAL] == 1)
    s[PENDING] = -1
    s[PENDING_MINIMAL] = 0
    s[FIRST_BLACK + side] = 1
    _end_turn(board, mask, owner, danger, s, seen, side, minimal, True, structure, keys, side_key, on_board,
              neighbours, degree)
    return outcome(s, stones > 0)


@njit(cache=True)
def new_game(board, mask, owner, danger, s, seen, memo, komi, keys, side_key, on_board, neighbours, degree):
    """Reset one game: empty board, Black to move by player_0, ``komi`` black stones in the prison."""
    board[:] = EMPTY
    s[:] = 0
    s[PENDING] = -1
    s[WINNER] = -1
    s[PRISON_BLACK] = komi
    seen[:] = 0
    hash_insert(seen, zobrist_hash(board, 0, keys, side_key))
    s[SEEN_COUNT] = 1
    compute_mask(board, mask, owner, danger, s, memo, on_board, neighbours, degree)


@njit(cache=True)
def observe(board, mask, owner, danger, s, observer, points, out):
    asli_planes(board, owner, danger, mask, observer, observer == s[TO_MOVE] and s[TERMINAL] == 0,
                percent(s[PRISON_BLACK + 1 - observer], points), percent(s[PRISON_BLACK + observer], points),
                s[LAST_MINIMAL], s[PENDING] >= 0, out)


PLANES = (
    Plane("own_stones", "stones of the observer"),
    Plane("opponent_stones", "stones of the opponent"),
    Plane("empty", "empty points"),
    Plane("on_board", "points of the board (all ones)"),
    Plane("own_territory", "empty points of territories the observer owns"),
    Plane("opponent_territory", "empty points of territories the opponent owns"),
    Plane("own_danger", "the observer's stones in groups alive through a single empty region"),
    Plane("opponent_danger", "the opponent's stones in groups alive through a single empty region"),
    Plane("legal", "the observer's legal placements (zeros when the observer is not to move)"),
    Plane("own_prisoners", "constant: enemy stones in the prison that the observer may remove, "
                           "round(100 * k / points) clipped to 100", 0, 100),
    Plane("opponent_prisoners", "constant: the observer's stones in the prison (the opponent may "
                                "remove them), round(100 * k / points) clipped to 100", 0, 100),
    Plane("ban", "constant: 1 if the last turn was a minimal incursion (the player to move may not "
                 "make one)"),
    Plane("second_stone", "constant: 1 when the next stone is the second of a double placement"),
    Plane("side", "constant: 0 if the observer plays Black, 1 if White"),
)

_ZOBRIST: dict = {}


def zobrist_keys(num_cells: int):
    """Fixed random keys per (point, colour) and for White to move (same on every machine)."""
    if num_cells not in _ZOBRIST:
        rng = np.random.default_rng(20261129 + num_cells)
        keys = rng.integers(1, 2**63, size=(num_cells, 2), dtype=np.uint64)
        side_key = np.uint64(rng.integers(1, 2**63, dtype=np.uint64))
        keys.setflags(write=False)
        _ZOBRIST[num_cells] = (keys, side_key)
    return _ZOBRIST[num_cells]


def row_fields(s) -> dict:
    """The state-dict fields (docs/spec.md) held in a scalar row ``s``, besides ``to_move``, ``flip``
    and ``seen`` (a table of its own): read by the state class and by the batched env alike."""
    return {"prison": [int(s[PRISON_BLACK]), int(s[PRISON_WHITE])], "pending": int(s[PENDING]),
            "pending_minimal": bool(s[PENDING_MINIMAL]),
            "first_turn_done": [bool(s[FIRST_BLACK]), bool(s[FIRST_WHITE])], "last_minimal": bool(s[LAST_MINIMAL])}


class AsliGame(Game):
    """Asli with fixed options: ``board_size`` (4..25, default 9), ``komi`` (black stones in the
    prison at the start, whole number >= 0, default 0), ``max_moves``."""

    name = "asli"
    sides = ("black", "white")
    legend = ("X a black stone, O a white stone, . an empty point; the line under the board counts the stones "
              "of each colour in the prison (a prisoner is an extra action for its captor). There is no score: "
              "the last player to act wins.")
    special_actions = ("remove_prisoner",)
    option_defaults = {"board_size": 9, "komi": 0}
    planes = PLANES

    def _validate(self, o):
        o["board_size"] = check_int("board_size", o["board_size"], 4, 25)
        o["komi"] = check_number("komi", o["komi"], integer=True, low=0, high=10_000)
        self.zobrist = zobrist_keys(o["board_size"] ** 2)
        geometry = square(o["board_size"])
        self.act_args = (*self.zobrist, geometry.on_board, geometry.neighbours, geometry.degree)
        self.num_points = geometry.num_points
        return geometry

    def default_max_moves(self) -> int:
        return 20 * self.geometry.num_points + 2 * self.options["komi"]  # each komi stone is one more turn


class AsliState(GameState):
    """The scalars of the game (prison, pending stone, first turns, the ban) live in ``s``, an int32
    row shared with the compiled turn logic; ``seen`` is the hash table of every turn-boundary
    position (Zobrist hashes of board and side to move), grown before it fills."""

    __slots__ = ("s", "seen", "owner", "danger", "memo", "info_version", "room_until")

    def _init_extra(self):
        self.info_version = 0
        self.room_until = 0
        self.s = np.zeros(NUM_SCALARS, dtype=np.int32)
        self.s[FLIP] = self.flip
        self.s[PENDING] = -1
        self.s[WINNER] = -1
        self.s[PRISON_BLACK] = self.game.options["komi"]
        self.seen = np.zeros(64, dtype=np.uint64)
        self._remember(self._hash())

    def _hash(self) -> int:
        keys, side_key = self.game.zobrist
        return int(zobrist_hash(self.board, self.to_move, keys, side_key))

    def _remember(self, h: int) -> None:
        """Add a position hash to ``seen`` (growing the table when half full)."""
        self._make_room()
        if hash_insert(self.seen, np.uint64(h)):
            self.s[SEEN_COUNT] += 1

    def _make_room(self) -> None:
        """Grow ``seen`` before it is half full. A turn adds one position at most, so the next
        ``room_until - move_number`` turns need no check."""
        if 2 * (int(self.s[SEEN_COUNT]) + 2) > self.seen.shape[0]:
            bigger = np.zeros((1, 2 * self.seen.shape[0]), dtype=np.uint64)
            hash_rehash(self.seen[None], bigger)
            self.seen = bigger[0]
        self.room_until = self.move_number + self.seen.shape[0] // 2 - 2 - int(self.s[SEEN_COUNT])

    # --- the scalars by name ------------------------------------------------------------------
    @property
    def prison(self) -> list:
        """Stones of each colour in the prison: [black, white]."""
        return [int(self.s[PRISON_BLACK]), int(self.s[PRISON_WHITE])]

    @property
    def pending(self) -> int:
        return int(self.s[PENDING])

    @property
    def pending_minimal(self) -> bool:
        return bool(self.s[PENDING_MINIMAL])

    @property
    def first_turn_done(self) -> list:
        return [bool(self.s[FIRST_BLACK]), bool(self.s[FIRST_WHITE])]

    @property
    def last_minimal(self) -> bool:
        """The last turn was a minimal incursion: the ban is on."""
        return bool(self.s[LAST_MINIMAL])

    def seen_positions(self) -> list:
        return sorted(int(h) for h in self.seen[self.seen != 0])

    # --- state plumbing -----------------------------------------------------------------------
    def _extra_fields(self):
        return {**row_fields(self.s), "seen": self.seen_positions()}

    def _load_extra(self, data):
        n = self.game.num_cells
        prison = field_ints(data, "prison", 2, 0, MAX_PRISON)
        first = field_bools(data, "first_turn_done", 2)
        pending = field_int(data, "pending", -1, n - 1)
        seen = data["seen"]
        if not isinstance(seen, (list, tuple)):
            raise ValueError(f"state dict: 'seen' must be a list of position hashes, got {type(seen).__name__}")
        hashes = [field_int({"seen": h}, "seen", 1, 2**64 - 1) for h in seen]  # 0 marks a free slot
        self.info_version = 0
        self.room_until = 0
        self.s = np.zeros(NUM_SCALARS, dtype=np.int32)
        self.s[:] = (self.to_move, self.flip, prison[0], prison[1], pending, field_bool(data, "pending_minimal"),
                     first[0], first[1], field_bool(data, "last_minimal"), self.terminal, self.winner, 0)
        self.seen = np.zeros(64, dtype=np.uint64)
        for h in hashes:
            self._remember(h)
        if pending >= 0 and (self.board[pending] != self.to_move + 1 or first[self.to_move]):
            raise ValueError("state dict: 'pending' must be -1 or the first stone of the mover's first turn")
        if self.pending_minimal and pending < 0:
            raise ValueError("state dict: 'pending_minimal' needs a pending stone")

    def _rules_end(self):
        if self.terminal and self.winner == -1 and hash_contains(self.seen, np.uint64(self._hash())):
            return True, -1  # a draw: the position recurs (the count of earlier visits is not kept)
        # the player to act with no legal action loses: the last to act wins
        return (False, -1) if self.mask.any() else (True, 1 - self.to_move)

    def _check_position(self):
        check_first_turns(self.board, self.to_move, self.pending, self.first_turn_done, double=True)
        # a turn sends the dead enemy groups to the prison and may leave no friendly group dead
        if self.pending < 0:
            g = self.game.geometry
            labels, _, alive, _ = liveness(self.board, g.on_board, g.neighbours, g.degree)
            stones = self.board > 0
            if np.any(stones & ~alive[np.maximum(labels, 0)]):
                raise ValueError("state dict: 'board' has a dead group, which the last turn would have captured")

    def _clone_extra(self, new):
        new.info_version = self.info_version
        new.room_until = self.room_until
        new.s = self.s.copy()
        new.seen = self.seen.copy()
        new.owner = self.owner.copy()
        new.danger = self.danger.copy()
        new.memo = self.memo.copy()

    def _refresh(self):
        n = self.game.num_cells
        self.owner = np.zeros(n, dtype=np.int8)
        self.danger = np.zeros(n, dtype=np.bool_)
        self.memo = np.zeros(memo_size(n, self.game.geometry.neighbours.shape[1]), dtype=MEMO_DTYPE)
        compute_mask(self.board, self.mask, self.owner, self.danger, self.s, self.memo, *self.game.kernel_args)

    def _apply(self, action):
        if self.move_number >= self.room_until:
            self._make_room()
        s = self.s
        g = self.game
        result = act(self.board, self.mask, self.owner, self.danger, s, self.seen, self.memo, action, *g.act_args)
        if result & OUT_PRISON:
            self.info_version += 1
        self.to_move = result & OUT_TO_MOVE
        if result & OUT_OVER:
            self.terminal = True
            self.winner = int(s[WINNER])

    def _rollout(self, seed, moves_left, trace, uniform):  # Asli's playouts are uniform either way
        g = self.game
        return asli_rollout(self.board, self.mask, self.owner, self.danger, self.s, self.seen, self.memo, moves_left,
                            *g.zobrist, *g.kernel_args, seed, trace)

    def observation(self, player: int) -> np.ndarray:
        g = self.game
        out = np.empty(g.obs_shape, dtype=np.int8)
        observe(self.board, self.mask, self.owner, self.danger, self.s, player ^ self.flip, g.num_points, out)
        return out

    def info(self) -> dict:
        prison = self.prison
        return {"prison_black": int(prison[0]), "prison_white": int(prison[1])}

    tints = (("black's territory", (40, 40, 40), 0.25), ("white's territory", (250, 250, 250), 0.35),
             ("a stone whose group lives through one region only", (220, 50, 50), 0.35))

    def tint_masks(self):
        return [self.owner == BLACK_OWNS, self.owner == WHITE_OWNS, self.danger]

    def _footer(self):
        prison = self.prison
        parts = [super()._footer(), f"prison: {prison[0]} black, {prison[1]} white"]
        if self.last_minimal and not self.terminal:
            parts.append("minimal incursion banned")
        if self.pending >= 0:
            parts.append("second stone of a double placement")
        return " - ".join(p for p in parts if p)


AsliGame.state_class = AsliState


# --- batched play (territory_envs.vector) -------------------------------------------------------
@njit(cache=True, parallel=True)
def asli_batch_step(actions, board, mask, owner, danger, scalars, seen, memo, move_number, komi, points, max_moves,
                    keys, side_key, on_board, neighbours, degree, obs, rewards, terminated, truncated,
                    final_obs, final_scores, final_view):
    """One action in every game of the batch, in parallel; finished games record their last
    observation, then start again (Asli has no score: ``final_scores`` stays 0). Every table in
    ``seen`` must keep a free slot (the caller grows them). ``final_view`` and an action of -1 as in
    ``lin_batch_step``."""
    for e in prange(actions.shape[0]):
        if skip_game(e, actions, rewards, terminated, truncated):
            continue
        s = scalars[e]
        act(board[e], mask[e], owner[e], danger[e], s, seen[e], memo[e], actions[e], keys, side_key, on_board,
            neighbours, degree)
        if after_action(e, s[TERMINAL] == 1, s[WINNER], s[FLIP], move_number, max_moves, mask, rewards,
                        terminated, truncated):
            final_scores[e, 0] = 0.0
            final_scores[e, 1] = 0.0
            observe(board[e], mask[e], owner[e], danger[e], s, final_viewer(final_view[e], s[TO_MOVE], s[FLIP]), points,
                    final_obs[e])
            move_number[e] = 0
            new_game(board[e], mask[e], owner[e], danger[e], s, seen[e], memo[e], komi, keys, side_key, on_board,
                     neighbours, degree)
        observe(board[e], mask[e], owner[e], danger[e], s, s[TO_MOVE], points, obs[e])


@njit(cache=True, parallel=True)
def asli_batch_reset(board, mask, owner, danger, scalars, seen, memo, move_number, komi, points, keys, side_key,
                     on_board, neighbours, degree, obs):
    for e in prange(board.shape[0]):
        move_number[e] = 0
        new_game(board[e], mask[e], owner[e], danger[e], scalars[e], seen[e], memo[e], komi, keys, side_key, on_board,
                 neighbours, degree)
        observe(board[e], mask[e], owner[e], danger[e], scalars[e], 0, points, obs[e])


# --- random playouts (agents.mcts) ----------------------------------------------------------------
@njit(cache=True)
def asli_rollout(board, mask, owner, danger, s, seen, memo, moves_left, keys, side_key, on_board, neighbours, degree,
                 seed, trace):
    """Uniformly random legal actions (prison removals included) from this position (copied, not
    changed) to the end, at most ``moves_left``; repetitions draw as in the game. Returns
    ``(winner player or -1, actions)``.

    Single-stone turns skip the whole mask: test the candidates (the empty points and the
    removal) one by one in a random order and play the first legal one, which is uniform over the
    legal actions. After ``ROLLOUT_TESTS`` illegal candidates the exact mask decides (uniform
    as well); a side whose every candidate failed has no legal action and loses. A side whose
    last mask showed under a quarter of its candidates legal asks the mask directly until a mask
    shows more. Double first turns go through ``act`` and the exact mask."""
    np.random.seed(seed)
    board = board.copy()
    mask = mask.copy()
    owner = owner.copy()
    danger = danger.copy()
    memo = memo.copy()
    s = s.copy()
    n = board.shape[0]
    size = 64
    while size < 2 * (s[SEEN_COUNT] + moves_left + 2):
        size *= 2
    table = np.zeros(size, dtype=np.uint64)  # room for every position of the playout
    for h in seen:
        if h != 0:
            hash_insert(table, h)
    trial = np.empty_like(board)
    flood_seen = np.zeros(n, dtype=np.bool_)
    flood_queue = np.empty(n, dtype=np.int32)
    candidates = np.empty(n + 1, dtype=np.int32)
    mask_first = np.zeros(2, dtype=np.bool_)  # per side: skip the candidate tests, ask the mask
    mask_fresh = True  # ``mask`` belongs to the current position
    for move in range(moves_left):
        side = s[TO_MOVE]
        chosen = -1
        if s[FIRST_BLACK + side] == 1 and not mask_first[side]:
            ban = s[LAST_MINIMAL] == 1
            count = 0
            own = 0
            for i in range(n):
                if board[i] == EMPTY:
                    candidates[count] = i
                    count += 1
                own += board[i] == side + 1
            if own == 0:  # a stone would be a lone group, dead whatever it captures: no placement
                count = 0
            if s[PRISON_BLACK + 1 - side] > 0:
                candidates[count] = n  # the prison removal, always legal when available
                count += 1
            tested = 0
            while tested < count and tested < ROLLOUT_TESTS:
                j = tested + np.random.randint(count - tested)  # a random order, drawn lazily
                r = candidates[j]
                candidates[j] = candidates[tested]
                candidates[tested] = r
                tested += 1
                if r == n:
                    chosen = n
                    break
                trial[:] = board
                groups, stones, alive = place_and_capture(trial, side, r, on_board, neighbours, degree)
                # minimal incursion: one group captured by a stone in enemy territory (judged before
                # it); region_colours as in is_incursion, with scratch kept for the whole playout
                minimal = groups == 1 and region_colours(board, r, neighbours, degree, flood_seen,
                                                         flood_queue) == 2 - side
                if alive and not (ban and minimal):
                    chosen = r
                    break
            if chosen < 0 and tested == count:  # every candidate tried: no legal action, a loss
                return winner_player(1 - side, s[FLIP]), move
        if chosen >= 0:
            if move < trace.shape[1]:
                trace[0, move] = chosen
                trace[1, move] = side ^ s[FLIP]
            placement = chosen < n
            if placement:
                board[:] = trial
                memo[MEMO_VALID] = 0  # (labelled again when next needed)
                s[PRISON_BLACK + 1 - side] += stones
            else:
                minimal = False
                s[PRISON_BLACK + 1 - side] -= 1
            s[LAST_MINIMAL] = minimal
            s[TO_MOVE] = 1 - side
            mask_fresh = False
            h = zobrist_hash(board, 1 - side, keys, side_key)
            if placement and hash_contains(table, h):
                return -1, move + 1  # the position recurs: a draw
            hash_insert(table, h)
            continue
        if not mask_fresh:
            compute_mask(board, mask, owner, danger, s, memo, on_board, neighbours, degree)
        if s[FIRST_BLACK + side] == 1:
            # few legal actions among many candidates (a side pinned to its prison removals, say):
            # go to the mask directly on this side's next turns, until the mask shows otherwise
            legal = 0
            candidates_now = mask[n]
            for i in range(n):
                legal += mask[i]
                candidates_now += board[i] == EMPTY
            mask_first[side] = 4 * legal < candidates_now
        action = random_set_index(mask, n + 1)
        if action < 0:
            return winner_player(1 - side, s[FLIP]), move  # no legal action: the side to move loses
        if move < trace.shape[1]:
            trace[0, move] = action
            trace[1, move] = side ^ s[FLIP]
        act(board, mask, owner, danger, s, table, memo, action, keys, side_key, on_board, neighbours, degree)
        mask_fresh = True
        if s[TERMINAL]:
            return winner_player(s[WINNER], s[FLIP]), move + 1
    return -1, moves_left
