"""Compiled helpers that only the tests need: whole-board labellings, the articulation points
of a cell set and whole-position analyses of Linage and Asli, built on the shared kernels of ``territory_envs.core.kernels`` so that the tests can
check those kernels and the games' incremental structures against a fresh labelling."""
import numpy as np
from numba import njit

from territory_envs.core.kernels import EMPTY, dfs_lowlink, label_equal_components
from territory_envs.games.asli.mask import DIRECT_WORK, analyse_structure
from territory_envs.games.asli.structure import SMALL_REGION, asli_structure
from territory_envs.games.linage.layout import MEMO_DTYPE, RUNS_DTYPE, SEARCH_CAP, memo_size
from territory_envs.games.linage.lines import line_facts
from territory_envs.games.linage.regions import region_facts


@njit(cache=True)
def label_groups(board, neighbours, degree):
    """Groups of stones: ``(labels, count)``, -1 on empty cells."""
    return label_equal_components(board, board > 0, neighbours, degree)


@njit(cache=True)
def label_regions(board, on_board, neighbours, degree):
    """Regions of empty on-board cells: ``(labels, count)``, -1 on stones and off-board cells."""
    return label_equal_components(board, on_board & (board == EMPTY), neighbours, degree)


@njit(cache=True)
def component_sizes(labels, count):
    sizes = np.zeros(count, dtype=np.int32)
    for i in range(labels.shape[0]):
        if labels[i] >= 0:
            sizes[labels[i]] += 1
    return sizes


@njit(cache=True)
def cut_cells(member, neighbours, degree):
    """Articulation points of the member cells' graph (removing one splits its component), from
    the DFS low-links of :func:`~territory_envs.core.kernels.dfs_lowlink`."""
    disc, low, parent, size, order = dfs_lowlink(member, neighbours, degree)
    n = member.shape[0]
    cut = np.zeros(n, dtype=np.bool_)
    children = np.zeros(n, dtype=np.int32)
    for v in order:
        p = parent[v]
        if p >= 0:
            children[p] += 1
            if parent[p] >= 0 and low[v] >= disc[p]:
                cut[p] = True
    for v in order:
        if parent[v] < 0 and children[v] >= 2:
            cut[v] = True
    return cut


@njit(cache=True)
def analyse_linage(board, height, width, line_length, neighbours, degree, kind, on_h, on_v, legal, planes=True,
                   search_cap=SEARCH_CAP):
    """Derived facts of a position: ``kind`` per cell (NOT_EMPTY, FREE, VERTICAL_OWNS,
    HORIZONTAL_OWNS), cells on horizontal / vertical lines (``on_h``, ``on_v``, only with ``planes``:
    the observation alone needs them) and the legal placements (``legal`` over the cells).
    Returns ``(free_regions, vertical_points, horizontal_points)``. ``search_cap`` (tests only): the
    local search's budget, 0 to decide every candidate by low-links."""
    n = board.shape[0]
    runs = np.empty((4, n), dtype=RUNS_DTYPE)
    safe = np.empty(n, dtype=np.uint8)
    memo = np.empty(memo_size(n), dtype=MEMO_DTYPE)
    line_facts(board, height, width, line_length, runs, safe, on_h, on_v, planes)
    return region_facts(board, height, width, line_length, neighbours, degree, runs, safe, kind, legal, memo,
                        search_cap)


@njit(cache=True)
def analyse_asli(board, side, ban, single, on_board, neighbours, degree, mask, owner, danger,
                 small_region=SMALL_REGION, direct_work=DIRECT_WORK):
    """:func:`analyse_structure` of ``board``, labelled here (``small_region``, ``direct_work`` as
    there)."""
    return analyse_structure(board, side, ban, single, asli_structure(board, on_board, neighbours, degree),
                             on_board, neighbours, degree, mask, owner, danger, small_region, direct_work)
