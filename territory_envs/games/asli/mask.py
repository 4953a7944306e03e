"""The legal mask of a single-stone turn, decided without simulation from the counts of the
:mod:`.structure` (the counting rule of the package docstring): :func:`analyse_structure`, with the
dying groups of a stone (:func:`dying_groups`, :func:`dying_by_ranges`) and whether their capture
revives the stone's group (:func:`captures_revive`)."""
from __future__ import annotations

import numpy as np

from ...core.jit import kernel
from ...core.kernels import EMPTY, MANY, colour_of, is_listed, lowlink_arrays, lowlink_component
from .rules import BLACK_OWNS, NOBODY, WHITE_OWNS, placement_legal
from .structure import SMALL_REGION, regions_per_group, touches_elsewhere


@kernel
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


@kernel
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


@kernel
def all_dependents(st, r, foe_colour, dying):
    """Every enemy group whose one partner region is ``r``, into ``dying``; returns how many."""
    count = 0
    for j in range(st.pair_start[r], st.pair_start[r + 1]):
        g = st.pair_group[j]
        if st.colour[g] == foe_colour and st.partners[g] == 1:
            dying[count] = g
            count += 1
    return count


@kernel
def event_arrays(block, n, max_degree):
    """The arrays of :func:`region_events` as views of one block of ``n + 1 + 2 * n * max_degree``
    entries and one per group: ``(ev_first, ev_group, next_other, g_events)``."""
    events = n * max_degree
    at = n + 1
    return block[:at], block[at:at + events], block[at + events:at + 2 * events], block[at + 2 * events:]


@kernel
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


@kernel
def seen_group_before(board, labels, neighbours, v, d):
    """Is neighbour ``d`` of ``v`` a stone of a group already met among v's earlier neighbours?"""
    nb = neighbours[v, d]
    for e in range(d):
        other = neighbours[v, e]
        if board[other] == board[nb] and labels[other] == labels[nb]:
            return True
    return False


@kernel
def range_groups(ev_group, next_other, x, y):
    """The enemy groups of the events ``x..y - 1``: -1 for none, the group if one, else MANY."""
    if x >= y:
        return -1
    if next_other[x] < y:
        return MANY
    return ev_group[x]


# (long: one compiled pass over the DFS ranges; split, the parts would pass its nine scratch arrays along)
@kernel
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


@kernel
def contact_lists_room(st):
    """Room for :func:`fill_contact_lists`, not yet filled."""
    lists = np.empty((1 + st.n_regions + st.n_groups, 1 + CONTACTS), dtype=np.int32)
    lists[0, 0] = 0
    return lists


@kernel
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
        if st.colour[g] == colour_of(me):
            lists[top + g, 0] = 1
            lists[top + g, 1] = g
        else:
            lists[top + g, 0] = -1
    for r in range(st.n_regions):
        near = 1 + r
        lists[near, 0] = 0
        first, last = st.pair_start[r], st.pair_start[r + 1]
        for j in range(first, last):
            if st.colour[st.pair_group[j]] == colour_of(me):
                add_contact(lists, near, st.pair_group[j])
        if lists[near, 0] < 2:
            continue  # its one friend is listed already
        for j in range(first, last):
            g = st.pair_group[j]
            if st.colour[g] == colour_of(me):
                for k in range(lists[near, 0]):
                    add_contact(lists, top + g, lists[near, 1 + k])


@kernel
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


@kernel
def lists_name_another(lists, row, friends, n_friends):
    """Does list ``row`` name a group other than ``friends``?"""
    for k in range(1, lists[row, 0] + 1):
        if not is_listed(lists[row, k], friends, n_friends):
            return True
    return False


@kernel
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


@kernel
def joined_groups_live_listed(st, me, friends, n_friends, lists):
    """:func:`joined_groups_live` through the lists of :func:`fill_contact_lists`."""
    fill_contact_lists(lists, st, me)
    for i in range(n_friends):
        if lists_name_another(lists, 1 + st.n_regions + friends[i], friends, n_friends):
            return True
    return False


@kernel
def friend_outside(st, me, r2, friends, n_friends, group_start, group_regions):
    """Does region ``r2`` touch a friendly group other than ``friends`` (more friendly groups
    than the friends next to it)?"""
    joined = 0
    for f in range(n_friends):
        for k in range(group_start[friends[f]], group_start[friends[f] + 1]):
            joined += group_regions[k] == r2
    return st.per_colour[r2, me] > joined


@kernel
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
                if board[nb] == colour_of(me) and not is_listed(st.labels[nb], friends, n_friends):
                    return 1
        for j in range(group_start[c], group_start[c + 1]):
            r2 = group_regions[j]
            if r2 != r and friend_outside(st, me, r2, friends, n_friends, group_start, group_regions):
                return 1
    return 0


@kernel
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
                    if board[nb] == colour_of(me):
                        add_contact(lists, top + c, st.labels[nb])
                    elif board[nb] == EMPTY:
                        near = 1 + st.labels[nb]
                        for k in range(1, lists[near, 0] + 1):
                            add_contact(lists, top + c, lists[near, k])
        if lists_name_another(lists, top + c, friends, n_friends):
            return True
    return False


@kernel(inline="always")
def derived_planes(st, owner, danger):
    """``owner`` and ``danger`` of :func:`analyse_structure` from the structure ``st``; returns
    whether every group lives."""
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
    return all_alive


# Long by choice: one pass over the regions, the scratch of the costlier ways (contact lists,
# low-links, event ranges) allocated when a point first needs it, which most positions never do;
# cut into steps, each would take a dozen of those arrays as arguments.
@kernel
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
    all_alive = derived_planes(st, owner, danger)
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
                if board[nb] == colour_of(me) and not is_listed(st.labels[nb], friends, n_friends):
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
