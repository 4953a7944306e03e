"""Differential test of Lifeline: the fast engine (local legal rule where every group lives, exact
simulation elsewhere) against the slow reference written from the rule text
(tests/reference/lifeline_reference.py) over seeded random games at sides 3, 4, 5 and 7 in the
three pies: legal sets, the board, swaps, komi and the winner at every step."""
import numpy as np
import pytest

from territory_envs import make_game
from territory_envs.games.lifeline import rules, structure
from tests.reference.lifeline_reference import ReferenceLifeline

# (side, games per pie)
SIZES = [(3, 45), (4, 30), pytest.param(5, 8, marks=pytest.mark.slow), pytest.param(7, 2, marks=pytest.mark.slow)]
PIES = [("strong", 0), ("weak", 0), ("komi", 3)]


def play_and_compare(side, pie, komi, seed):
    game = make_game("lifeline", board_size=side, pie=pie, komi=komi)
    state = game.new_state()
    ref = ReferenceLifeline(side, pie, komi)
    rng = np.random.default_rng(seed)
    special = {game.num_cells, game.num_cells + 1}
    while True:
        legal = state.legal_actions().tolist()
        assert legal == ref.legal_moves(), f"legal sets differ at move {state.move_number}"
        assert state.is_terminal() == ref.over
        if ref.over:
            break
        # take the specials now and then, so swaps and spends are exercised
        specials = [a for a in legal if a in special]
        action = specials[0] if specials and rng.random() < 0.3 else int(rng.choice(legal))
        state.apply(action)
        ref.play(action)
        assert state.board.tolist() == [max(v, 0) for v in ref.cells()]
        assert bool(state.flip) == ref.swapped and state.komi_left == ref.komi_left
        assert state.to_move == ref.to_move
    assert state.winner == ref.winner()
    return state.move_number


@pytest.mark.parametrize("pie,komi", PIES)
@pytest.mark.parametrize("side,games", SIZES)
def test_random_games_match_reference(side, games, pie, komi):
    for g in range(games):
        play_and_compare(side, pie, komi, seed=1000 * side + g)


@pytest.mark.parametrize("side", [3, 4, 5, 6])
def test_hexhex_board_is_three_connected(side):
    """The premise of the first turn's lemma (games/lifeline/__init__.py, before ``first_stone_mask``): no two
    cells of the board cut it apart."""
    geo = make_game("lifeline", board_size=side).geometry
    cells = np.flatnonzero(geo.on_board).tolist()
    for a in cells:
        for b in cells:
            if a < b:
                rest = [c for c in cells if c not in (a, b)]
                seen, todo = {rest[0]}, [rest[0]]
                while todo:
                    x = todo.pop()
                    for y in geo.neighbours[x, :geo.degree[x]].tolist():
                        if y not in (a, b) and y not in seen:
                            seen.add(y)
                            todo.append(y)
                assert len(seen) == len(rest), (a, b)


@pytest.mark.parametrize("side", [3, 4])
def test_first_turn_masks_match_the_reference_on_loaded_positions(side):
    """White's first turn from loaded positions: random black stones (groups alive and dead, few
    and many, the board all but full), White with none. Both stones' legal sets equal the
    reference's, which searches every pair; the second stone's after several first stones, legal
    or not next to enemy stones."""
    from tests.positions import lifeline_position
    game = make_game("lifeline", board_size=side)
    geo = game.geometry
    cells = np.flatnonzero(geo.on_board)
    rng = np.random.default_rng(side)
    dead_seen = legal_touching = 0
    for _ in range(40):
        draw = rng.random()  # one or two stones, or all but one or two cells: one group, so dead
        count = rng.integers(1, 3) if draw < 0.3 else len(cells) - rng.integers(1, 3) if draw < 0.4 else \
            rng.integers(3, len(cells) - 3)
        black = rng.choice(cells, count, replace=False)
        names = [geo.to_notation(int(i)) for i in black]
        state = lifeline_position(side, black=names, to_move="white", first_turn_done=[True, False],
                                  reachable=False)  # dead groups on purpose
        ref = ReferenceLifeline(side)
        for i in cells:
            ref.board[ref.cell_of(int(i))] = 0 if state.board[i] == 1 else None
        ref.to_move, ref.first_turn_done, ref.swap_used = 1, {0: True, 1: False}, True
        dead_seen += bool(ref.dead_groups_on(ref.board))
        assert [a for a in state.legal_actions().tolist() if a < game.num_cells] == [
            ref.action_of(c) for c in ref.legal_placements()]
        for first in rng.permutation(state.legal_actions())[:3].tolist():
            if first >= game.num_cells:
                continue
            after, ref_after = state.clone().apply(first), ref.clone()
            ref_after.turn_start_board = dict(ref.board)
            ref_after.board[ref.cell_of(first)] = 1
            ref_after.pending = ref.cell_of(first)
            legal = after.legal_actions().tolist()
            assert legal == [ref.action_of(c) for c in ref_after.legal_placements()]
            touching = set(geo.neighbours[first, :geo.degree[first]].tolist())
            legal_touching += bool(touching & set(legal))
    assert dead_seen > 3 and legal_touching > 3, (dead_seen, legal_touching)


def test_local_rule_agrees_with_exact_simulation_on_large_boards():
    """Where every group lives, the ring argument's local rule equals exact simulation (side 9)."""
    from territory_envs.games.lifeline.rules import analyse
    from territory_envs.games.lifeline.mask import exact_single_mask
    game = make_game("lifeline", board_size=9)
    geo = game.geometry
    rng = np.random.default_rng(9)
    checked = 0
    for _ in range(3):
        state = game.new_state()
        while not state.is_terminal():
            if state.removal_on and state.pending < 0 and all(state.first_turn_done):
                a = np.zeros(geo.num_cells, bool)
                b = np.zeros(geo.num_cells, bool)
                alive = np.empty(geo.num_cells, bool)
                links = np.empty(geo.num_cells, np.int8)
                assert analyse(state.board, state.to_move, geo.on_board, geo.neighbours, geo.degree, alive, links, a)[0]
                exact_single_mask(state.board, state.to_move, True, geo.on_board, geo.neighbours, geo.degree, b)
                assert (a == b).all()
                checked += 1
            state.apply(int(rng.choice(state.legal_actions())))
    assert checked > 50


def same_memo(kept, whole, board):
    """Two ``memo`` arrays (games/lifeline/structure.py) describe the same position: the same partition into
    regions and into groups (labels may differ, but each is a cell of its own region or group),
    the same group counts per region, the same life per group, the same placements per colour,
    and walls in ``kept`` no finer than those of ``whole``."""
    n = board.size
    for block, counts in ((structure.REGION, (structure.BLACK_GROUPS, structure.WHITE_GROUPS)), (structure.GROUP, (structure.LIFE,))):
        a, b = kept[block * n:(block + 1) * n], whole[block * n:(block + 1) * n]
        pairs = {(int(x), int(y)) for x, y in zip(a, b)}
        assert len({x for x, _ in pairs}) == len({y for _, y in pairs}) == len(pairs), "partitions differ"
        for x, y in pairs:
            assert (x < 0) == (y < 0)
            assert x < 0 or a[x] == x, "a label is a cell of its region or group"
            for c in counts if x >= 0 else ():
                assert kept[c * n + x] == whole[c * n + y], (block, c)
    placeable = slice((structure.LIFE + 1) * n, (structure.LIFE + 3) * n)
    counts = slice(structure.MEMO_BLOCKS * n, None)
    assert (kept[placeable] == whole[placeable]).all() and (kept[counts] == whole[counts]).all(), "placements differ"
    assert walls_within(kept, whole, board), "a wall is split"
    return True


def wall_roots(memo, board):
    """Per cell, the root of its wall in games/lifeline/structure.py's union-find (-1 where the entry is -1)."""
    n = board.size
    memo = memo.copy()
    blocks = structure.memo_blocks(memo, n)
    return np.array([structure.wall_of(blocks, i) if memo[structure.WALL * n + i] >= 0 else -1 for i in range(n)])


def walls_within(kept, whole, board):
    """Every wall of ``whole`` (exact, as ``build_memo`` makes them) lies within one wall of
    ``kept``: the kept walls are the same or coarser, which is all that ``walls_apart`` needs."""
    a, b = wall_roots(kept, board), wall_roots(whole, board)
    members = board != 0
    members[structure.EXTERIOR] = True
    assert ((b >= 0) == members).all() and (a[members] >= 0).all()
    return all(len(set(a[members & (b == root)])) == 1 for root in set(b[members]))


@pytest.mark.parametrize("side,games", [(4, 40), (5, 30), (6, 20), (9, 6)])
def test_usual_turn_keeps_the_facts_of_the_position_analysed_whole(side, games):
    """At every usual turn of seeded random games the incremental turn (``usual_turn``) removes the
    stones that the whole turn (``play_stone``: place, settle, analyse) removes, and keeps every
    derived fact equal to those of the position analysed whole (memo, links, living stones, the
    opponent's placements, whether every group lives), captures included."""
    game = make_game("lifeline", board_size=side)
    geo = game.geometry
    n = geo.num_cells
    rng = np.random.default_rng(side)
    turns = captures = 0
    for _ in range(games):
        state = game.new_state()
        while not state.is_terminal():
            action = int(rng.choice(state.legal_actions()))
            usual = (action < n and state.pending < 0 and state.removal_on and state.all_alive
                     and all(state.first_turn_done))
            if not usual:
                state.apply(action)
                continue
            board, memo = state.board.copy(), state.memo.copy()
            links, alive, mask = state.links.copy(), state.alive_cell.copy(), np.zeros(n, np.int8)
            legal, all_alive = structure.usual_turn(board, action, state.to_move, memo, links, alive, mask,
                                                geo.neighbours, geo.degree)
            whole_board = state.board.copy()
            w_alive, w_links, w_mask = np.zeros(n, bool), np.zeros(n, np.int8), np.zeros(n, np.int8)
            w_memo = np.zeros_like(memo)
            w_all_alive, w_legal = rules.play_stone(whole_board, state.to_move, action, True, geo.on_board,
                                                    geo.neighbours, geo.degree, w_alive, w_links, w_mask, w_memo)
            captures += ((state.board > 0) & (whole_board == 0)).any()
            assert (board == whole_board).all(), "removals differ"
            assert same_memo(memo, w_memo, board)
            assert (links == w_links).all() and (alive == w_alive).all()
            assert (mask == w_mask).all() and legal == w_legal == w_mask.sum() and all_alive == w_all_alive
            turns += 1
            state.apply(action)
    assert turns > 10 * captures > 0


@pytest.mark.parametrize("side", [3, 5, 8])
def test_walls_tell_a_region_that_splits_from_one_that_closes_round_a_stone(side):
    """In positions of seeded random games the walls built afresh (``build_walls``) are the
    connected sets of stones, the edge's stones joined through what lies off the board (a direct
    flood), and the walls kept in ``memo`` are no finer. At every empty cell p whose empty
    neighbours form two or more arcs, ``walls_apart`` on the fresh walls is True exactly when
    R - p is one region, and on the kept walls only if it is."""
    from tests.kernel_helpers import label_regions
    game = make_game("lifeline", board_size=side)
    geo = game.geometry
    n = geo.num_cells
    rng = np.random.default_rng(side)
    ring = np.empty(6, np.int32)
    verdicts = {True: 0, False: 0}
    coarser = 0  # kept walls that saw a loop no longer there
    for _ in range(12):
        state = game.new_state()
        while not state.is_terminal():
            board = state.board
            fresh = state.memo.copy()
            structure.build_walls(board, structure.memo_blocks(fresh, n), geo.neighbours, geo.degree)
            roots = wall_roots(fresh, board)
            edge = [int(i) for i in np.flatnonzero(board) if geo.degree[i] < 6]
            flooded = np.full(n, -1)
            flooded[structure.EXTERIOR] = structure.EXTERIOR
            for start in [None] + [int(i) for i in np.flatnonzero(board)]:
                if start is not None and flooded[start] >= 0:
                    continue
                todo = list(edge) if start is None else [start]
                label = structure.EXTERIOR if start is None else start
                flooded[todo] = label
                while todo:
                    i = todo.pop()
                    for y in geo.neighbours[i, :geo.degree[i]]:
                        if board[y] and flooded[y] < 0:
                            flooded[y] = label
                            todo.append(int(y))
            assert (roots == flooded).all()
            assert walls_within(state.memo, fresh, board)
            if state.pending < 0 and all(state.first_turn_done):
                kept = state.memo.copy()
                for p in np.flatnonzero((board == 0) & geo.on_board):
                    structure.ring_of(p, geo.width, geo.neighbours, geo.degree, ring)
                    empty = [x >= 0 and board[x] == 0 for x in ring]
                    arcs = sum(empty[k] and not empty[k - 1] for k in range(6))
                    if arcs < 2:
                        continue
                    filled = board.copy()
                    filled[p] = 1
                    labels, _ = label_regions(filled, geo.on_board, geo.neighbours, geo.degree)
                    one_region = len({labels[x] for x in ring if x >= 0 and board[x] == 0}) == 1
                    assert structure.walls_apart(board, ring, structure.memo_blocks(fresh, n)) == one_region
                    apart = structure.walls_apart(board, ring, structure.memo_blocks(kept, n))
                    assert one_region or not apart
                    coarser += one_region and not apart
                    verdicts[one_region] += 1
            state.apply(int(rng.choice(state.legal_actions())))
    assert min(verdicts.values()) > 20, verdicts
    assert coarser < verdicts[True] / 2, coarser
