"""The shared core: geometry, notation and the connectivity kernels on square and hexhex boards,
checked against direct Python versions on random boards."""
from collections import deque

import numpy as np
import pytest

from territory_envs.core import kernels
from territory_envs.core.geometry import hexhex, square

from tests import kernel_helpers

GEOMETRIES = [square(5), square(9), square(19), hexhex(3), hexhex(5), hexhex(8)]


def direct_neighbours(geo, cell):
    r, c = geo.coords(cell)
    steps = [(-1, 0), (1, 0), (0, -1), (0, 1)]
    if geo.kind == "hex":
        steps += [(-1, 1), (1, -1)]
    out = set()
    for dr, dc in steps:
        rr, cc = r + dr, c + dc
        if 0 <= rr < geo.height and 0 <= cc < geo.width and geo.on_board[geo.cell(rr, cc)]:
            out.add(geo.cell(rr, cc))
    return out


def direct_components(geo, member, same=None):
    """Components by BFS; ``same(a, b)`` decides whether two member neighbours join."""
    seen, comps = set(), []
    for start in range(geo.num_cells):
        if not member[start] or start in seen:
            continue
        comp, queue = {start}, deque([start])
        seen.add(start)
        while queue:
            cell = queue.popleft()
            for nb in direct_neighbours(geo, cell):
                if member[nb] and nb not in seen and (same is None or same(cell, nb)):
                    seen.add(nb)
                    comp.add(nb)
                    queue.append(nb)
        comps.append(frozenset(comp))
    return set(comps)


def as_sets(labels, count):
    return {frozenset(np.flatnonzero(labels == k).tolist()) for k in range(count)}


def random_board(geo, rng, density):
    board = rng.choice(np.array([0, 1, 2], np.int8), size=geo.num_cells, p=[1 - density, density / 2, density / 2])
    board[~geo.on_board] = 0
    return board


def test_board_shapes():
    assert square(9).num_points == 81 and square(9).neighbours.shape == (81, 4)
    for b in (3, 5, 12):
        geo = hexhex(b)
        assert geo.shape == (2 * b - 1, 2 * b - 1)
        assert geo.num_points == 3 * b * b - 3 * b + 1
    assert hexhex(5).num_points == 61 and hexhex(7).num_points == 127 and hexhex(12).num_points == 397
    assert square(7) is square(7)


@pytest.mark.parametrize("geo", GEOMETRIES, ids=lambda g: g.describe())
def test_neighbour_tables(geo):
    for cell in range(geo.num_cells):
        got = set(geo.neighbours[cell, :geo.degree[cell]].tolist())
        assert got == (direct_neighbours(geo, cell) if geo.on_board[cell] else set())
        assert (geo.neighbours[cell, geo.degree[cell]:] == -1).all()
    if geo.kind == "hex":  # interior cells have 6 neighbours, the 6 corners have 3
        assert sorted(set(geo.degree[geo.on_board].tolist())) == [3, 4, 6]


@pytest.mark.parametrize("geo", GEOMETRIES, ids=lambda g: g.describe())
def test_notation_round_trip(geo):
    for cell in np.flatnonzero(geo.on_board):
        assert geo.from_notation(geo.to_notation(cell)) == cell
    off = np.flatnonzero(~geo.on_board)
    for cell in off[:5]:
        with pytest.raises(ValueError):
            geo.from_notation(geo.to_notation(cell))
    for bad in ("", "3c", "z1", "a0", f"a{geo.height + 1}", "a-1", "aa"):
        with pytest.raises(ValueError):
            geo.from_notation(bad)


def test_notation_orientation():
    geo = square(9)
    assert geo.to_notation(geo.cell(8, 0)) == "a1"  # bottom-left
    assert geo.to_notation(geo.cell(0, 8)) == "i9"  # top-right
    assert geo.from_notation("C3") == geo.cell(6, 2)
    assert square(25).to_notation(24) == "y25"


@pytest.mark.parametrize("geo", GEOMETRIES, ids=lambda g: g.describe())
@pytest.mark.parametrize("density", [0.2, 0.5, 0.8])
def test_kernels_match_direct_versions(geo, density):
    rng = np.random.default_rng(int(density * 10) + geo.num_cells)
    for _ in range(5):
        board = random_board(geo, rng, density)
        member = geo.on_board & (board != 2)
        labels, count = kernels.label_components(member, geo.neighbours, geo.degree)
        assert as_sets(labels, count) == direct_components(geo, member)
        # the components holding a flagged member cell, flooded from the flags alone
        flag = member & (rng.random(geo.num_cells) < 0.05)
        holding = np.ones(geo.num_cells, dtype=bool)  # garbage in: the kernel must clear it
        kernels.components_holding(member, flag, geo.neighbours, geo.degree, holding)
        expected = set()
        for comp in direct_components(geo, member):
            if any(flag[c] for c in comp):
                expected |= set(comp)
        assert set(np.flatnonzero(holding).tolist()) == expected
        groups, n_groups = kernel_helpers.label_groups(board, geo.neighbours, geo.degree)
        direct_groups = direct_components(geo, board > 0, same=lambda a, b: board[a] == board[b])
        assert as_sets(groups, n_groups) == direct_groups
        regions, n_regions = kernel_helpers.label_regions(board, geo.on_board, geo.neighbours, geo.degree)
        direct_regions = direct_components(geo, geo.on_board & (board == 0))
        assert as_sets(regions, n_regions) == direct_regions
        assert (kernel_helpers.component_sizes(groups, n_groups).sum() == (board > 0).sum())
        # adjacency between regions and groups
        start, adj = kernels.region_group_adjacency(regions, n_regions, groups, n_groups,
                                                    geo.neighbours, geo.degree)
        for k in range(n_regions):
            listed = adj[start[k]:start[k + 1]].tolist()
            assert len(listed) == len(set(listed))
            cells = np.flatnonzero(regions == k)
            expected = {int(groups[nb]) for c in cells for nb in direct_neighbours(geo, c) if board[nb] > 0}
            assert set(listed) == expected
        # liveness: a group is alive iff a region next to it touches another group of its colour
        labels, count, alive, reach = kernels.liveness(board, geo.on_board, geo.neighbours, geo.degree)
        on = geo.on_board
        assert as_sets(labels, count) == direct_groups | direct_regions
        for k in range(count):
            cells = set(np.flatnonzero(labels == k).tolist())
            colour = board[next(iter(cells))]
            if colour == 0:
                for c in (1, 2):
                    touching = {int(labels[nb]) for x in cells for nb in direct_neighbours(geo, x) if board[nb] == c}
                    expected = -1 if not touching else (touching.pop() if len(touching) == 1 else kernels.MANY)
                    assert reach[k, c - 1] == expected
                assert not alive[k]
                continue
            touching_regions = {int(labels[nb]) for x in cells for nb in direct_neighbours(geo, x) if board[nb] == 0}
            friends = set()
            for r in touching_regions:
                for x in np.flatnonzero(labels == r):
                    for nb in direct_neighbours(geo, x):
                        if board[nb] == colour and nb not in cells:
                            friends.add(int(labels[nb]))
            assert alive[k] == bool(friends), f"group {k}"
        assert (labels[~on] == -1).all()
        # links: per empty cell, bit c-1 when it touches two or more groups of colour c
        links = np.full(geo.num_cells, 9, np.int8)
        again = kernels.liveness(board, geo.on_board, geo.neighbours, geo.degree, links)
        assert (again[0] == labels).all() and (again[2] == alive).all()
        for x in range(geo.num_cells):
            expected = 0
            if on[x] and board[x] == 0:
                for c in (1, 2):
                    if len({int(labels[nb]) for nb in direct_neighbours(geo, x) if board[nb] == c}) >= 2:
                        expected |= 1 << (c - 1)
            assert links[x] == expected, x


def test_lone_group_is_dead_and_two_groups_sharing_a_region_live():
    geo = hexhex(3)
    board = np.zeros(geo.num_cells, np.int8)
    c3, e3 = geo.from_notation("c3"), geo.from_notation("e3")
    board[c3] = 1
    labels, n, alive, _ = kernels.liveness(board, geo.on_board, geo.neighbours, geo.degree)
    assert n == 2 and not alive[labels[c3]]  # one group, one region
    board[e3] = 1
    labels, n, alive, _ = kernels.liveness(board, geo.on_board, geo.neighbours, geo.degree)
    assert n == 3 and alive[labels[c3]] and alive[labels[e3]]


@pytest.mark.parametrize("length", [2, 3, 5])
def test_run_lengths_and_line_marks(length):
    rng = np.random.default_rng(length)
    for _ in range(20):
        member = rng.random(49) < 0.7
        grid = member.reshape(7, 7)
        left, right, up, down = (np.full(49, -9, np.int32) for _ in range(4))
        kernels.run_lengths(member, 7, 7, left, right, up, down)
        for r in range(7):
            for c in range(7):
                def run(dr, dc):
                    k = 0
                    while 0 <= r + k * dr < 7 and 0 <= c + k * dc < 7 and grid[r + k * dr, c + k * dc]:
                        k += 1
                    return k
                i = r * 7 + c
                assert (left[i], right[i], up[i], down[i]) == (run(0, -1), run(0, 1), run(-1, 0), run(1, 0))
        on_row = left + right - 1 >= length  # how Linage marks the cells on lines
        on_col = up + down - 1 >= length
        for r in range(7):
            for c in range(7):
                row_hit = any(all(grid[r, k] for k in range(s, s + length))
                              for s in range(max(0, c - length + 1), min(c, 7 - length) + 1))
                col_hit = any(all(grid[k, c] for k in range(s, s + length))
                              for s in range(max(0, r - length + 1), min(r, 7 - length) + 1))
                assert on_row[r * 7 + c] == row_hit and on_col[r * 7 + c] == col_hit
        # line ends: the cells where `length` members in a row or column end
        ends = np.ones(49, bool)  # garbage in: the kernel overwrites it
        kernels.mark_line_ends(member, 7, 7, length, ends)
        for r in range(7):
            for c in range(7):
                expected = ((c + 1 >= length and all(grid[r, k] for k in range(c - length + 1, c + 1)))
                            or (r + 1 >= length and all(grid[k, c] for k in range(r - length + 1, r + 1))))
                assert ends[r * 7 + c] == expected


@pytest.mark.parametrize("geo", GEOMETRIES[:5], ids=lambda g: g.describe())
def test_cut_cells_and_dfs_subtrees(geo):
    rng = np.random.default_rng(geo.num_cells)
    for _ in range(6):
        member = geo.on_board & (rng.random(geo.num_cells) < 0.7)
        cut = kernel_helpers.cut_cells(member, geo.neighbours, geo.degree)
        before = len(direct_components(geo, member))
        for p in np.flatnonzero(member):
            without = member.copy()
            without[p] = False
            alone = not any(member[nb] for nb in direct_neighbours(geo, p))
            assert cut[p] == (len(direct_components(geo, without)) > before - (1 if alone else 0)), p
        disc, low, parent, size, order = kernels.dfs_lowlink(member, geo.neighbours, geo.degree)
        assert sorted(order.tolist()) == np.flatnonzero(member).tolist()
        for c in order:
            inside = {int(v) for v in order if disc[c] <= disc[v] < disc[c] + size[c]}
            node = None
            for v in inside:  # every cell of the subtree has c as an ancestor
                node = v
                while node != c and node >= 0:
                    node = parent[node]
                assert node == c


@pytest.mark.parametrize("geo", GEOMETRIES, ids=lambda g: g.describe())
def test_neighbour_rows_are_sorted(geo):
    # label_equal_components stops at the first neighbour after the cell
    for i in range(geo.num_cells):
        row = geo.neighbours[i, :geo.degree[i]]
        assert (np.diff(row) > 0).all()
        assert (geo.neighbours[i, geo.degree[i]:] == -1).all()


def test_compile_cache_cleared_when_any_source_changes(tmp_path, monkeypatch):
    from territory_envs.core.compile_cache import clear_stale_cache
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    (tmp_path / "games").mkdir()
    (tmp_path / "kernels.py").write_text("x = 1\n")
    (tmp_path / "games" / "rules.py").write_text("y = 2\n")
    cached = tmp_path / "games" / "__pycache__"
    cached.mkdir()

    def cache_file():
        (cached / "rules.step-1.py311.nbi").write_bytes(b"index")
        return cached / "rules.step-1.py311.nbi"
    f = cache_file()
    assert clear_stale_cache(str(tmp_path)) and not f.exists()  # no stamp yet: cleared
    f = cache_file()
    assert not clear_stale_cache(str(tmp_path)) and f.exists()  # same sources: kept
    (tmp_path / "kernels.py").write_text("x = 3\n")  # another file than the cached function's
    assert clear_stale_cache(str(tmp_path)) and not f.exists()
    (cached / "rules.pyc").write_bytes(b"")
    assert not clear_stale_cache(str(tmp_path)) and (cached / "rules.pyc").exists()
