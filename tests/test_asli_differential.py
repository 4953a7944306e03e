"""Differential test of Asli: the fast engine (counting rule for most points, exact simulation at
cut points, captures and first turns) against the slow reference written from the rule text
(tests/reference/asli_reference.py): legal sets, the board, the prison, the ban and the result at
every step of seeded random games on 4x4, 5x5, 7x7 and 9x9 with komi 0 and 3. Also the mask against
simulating every point, and the structure kept from move to move against a fresh labelling."""
import numpy as np
import pytest

from territory_envs import make_game
from tests.reference.asli_reference import ReferenceAsli

# (board_size, games per komi)
SIZES = [(4, 50), (5, 50), pytest.param(7, 35, marks=pytest.mark.slow), pytest.param(9, 15, marks=pytest.mark.slow)]


def play_and_compare(size, komi, seed):
    game = make_game("asli", board_size=size, komi=komi)
    state = game.new_state()
    ref = ReferenceAsli(size, komi)
    rng = np.random.default_rng(seed)
    remove = size * size
    while True:
        legal = state.legal_actions().tolist()
        assert legal == ref.legal_moves(), f"legal sets differ at move {state.move_number}"
        assert state.is_terminal() == ref.over
        if ref.over:
            break
        # prison removals now and then, so the prison and the ban's clearing are exercised
        action = remove if remove in legal and rng.random() < 0.25 else int(rng.choice(legal))
        state.apply(action)
        ref.play(action)
        assert state.board.tolist() == ref.cells()
        assert state.prison == list(ref.prison)
        assert state.last_minimal == ref.prev_turn_minimal or state.pending >= 0
        assert state.to_move == ref.to_move
    expected = -1 if ref.result == "draw" else ref.result
    assert state.winner == expected
    return state


@pytest.mark.parametrize("komi", [0, 3])
@pytest.mark.parametrize("size,games", SIZES)
def test_random_games_match_reference(size, games, komi):
    results = [play_and_compare(size, komi, seed=100 * size + 10 * komi + g).winner for g in range(games)]
    assert len(set(results)) >= 2 or games < 20  # both sides win some games


@pytest.mark.parametrize("small_region,direct_work", [(0, 0), (None, None), (10_000, 10_000)])
@pytest.mark.parametrize("size", [13, 19])
def test_counting_rule_agrees_with_simulation_on_large_boards(size, small_region, direct_work):
    """The counting rule against simulating every point, on boards larger than the differential
    games reach: long regions with many cut points, large groups. Regions that may lose a group go
    through the scan or the event ranges by their size (``small_region``), joining and dying groups
    are looked at directly or through lists of contacts by their size (``direct_work``); each way
    is checked alone too."""
    from territory_envs.games.asli.mask import DIRECT_WORK
    from territory_envs.games.asli.structure import SMALL_REGION
    from territory_envs.games.asli.rules import single_turn_legal
    from tests.kernel_helpers import analyse_asli
    game = make_game("asli", board_size=size)
    geo = game.geometry
    rng = np.random.default_rng(size)
    checked = simulated = 0
    for _ in range(3):
        state = game.new_state()
        while not state.is_terminal() and state.move_number < 600:  # to the end: every phase
            if all(state.first_turn_done) and state.pending < 0:
                fast = np.zeros(geo.num_cells, bool)
                owner = np.zeros(geo.num_cells, np.int8)
                danger = np.zeros(geo.num_cells, bool)
                _, _, sims = analyse_asli(state.board, state.to_move, state.last_minimal, True, geo.on_board,
                                          geo.neighbours, geo.degree, fast, owner, danger,
                                          SMALL_REGION if small_region is None else small_region,
                                          DIRECT_WORK if direct_work is None else direct_work)
                direct = [state.board[p] == 0 and single_turn_legal(state.board, state.to_move, p, state.last_minimal,
                                                                   geo.on_board, geo.neighbours, geo.degree)
                          for p in range(geo.num_cells)]
                assert fast.tolist() == direct
                checked += 1
                simulated += sims
            state.apply(int(rng.choice(state.legal_actions())))
    print(f"{checked} positions, {simulated / checked:.2f} points simulated per position")
    assert checked > 100
    assert simulated < 0.1 * checked * size * size  # the counting rule decides most points


@pytest.mark.parametrize("small_region,direct_work", [(0, 0), (10_000, 10_000), (0, 10_000), (10_000, 0)])
@pytest.mark.parametrize("size", [4, 5, 6, 7])
def test_mask_agrees_with_simulation_on_random_boards(size, small_region, direct_work):
    """Random boards where every group lives (the start of a single-stone turn, but shapes that
    random play seldom builds), both sides, ban on and off: the mask against simulating each point,
    with every region through the event ranges and through the scan, and every joining or dying
    group looked at directly and through the lists of contacts."""
    from territory_envs.games.asli.structure import asli_structure
    from territory_envs.games.asli.rules import single_turn_legal
    from tests.kernel_helpers import analyse_asli
    geo = make_game("asli", board_size=size).geometry
    n = geo.num_cells
    rng = np.random.default_rng(1000 + size)
    checked = legal = 0
    while checked < 300:
        board = np.where(rng.random(n) < rng.uniform(0.3, 0.75), rng.integers(1, 3, n), 0).astype(np.int8)
        st = asli_structure(board, geo.on_board, geo.neighbours, geo.degree)
        if st.n_groups == 0 or (st.partners[:st.n_groups] == 0).any():
            continue
        for side in (0, 1):
            for ban in (False, True):
                fast = np.zeros(n, bool)
                analyse_asli(board, side, ban, True, geo.on_board, geo.neighbours, geo.degree, fast,
                             np.zeros(n, np.int8), np.zeros(n, bool), small_region, direct_work)
                direct = [board[p] == 0 and single_turn_legal(board, side, p, ban, geo.on_board, geo.neighbours,
                                                              geo.degree) for p in range(n)]
                assert fast.tolist() == direct, (board.reshape(size, size), side, ban)
                legal += sum(direct)
        checked += 1
    assert legal > 0


def structure_facts(st, board):
    """A structure up to the numbering of its groups and regions: each group (its stones, colour,
    partner count), each region (its points, per-colour counts, the groups next to it), and whether
    every point's label names the group or region holding it."""
    groups = {}
    for g in range(st.n_groups):
        cells = frozenset(st.group_cells[st.group_offsets[g]:st.group_offsets[g + 1]].tolist())
        groups[g] = cells
    regions = {}
    for r in range(st.n_regions):
        regions[r] = frozenset(st.region_cells[st.region_offsets[r]:st.region_offsets[r + 1]].tolist())
    labels_agree = all((i in groups[st.labels[i]]) if board[i] else (i in regions[st.labels[i]])
                       for i in range(len(board)))
    group_facts = {cells: (int(st.colour[g]), int(st.partners[g])) for g, cells in groups.items()}
    region_facts = {cells: (tuple(st.per_colour[r].tolist()),
                            frozenset(groups[g] for g in st.pair_group[st.pair_start[r]:st.pair_start[r + 1]]),
                            st.pair_start[r + 1] - st.pair_start[r])
                    for r, cells in regions.items()}
    return labels_agree, group_facts, region_facts


@pytest.mark.parametrize("size", [4, 6, 9])
def test_structure_after_a_stone_matches_a_fresh_labelling(size):
    """structure_after_stone (no labelling of the board) against labelling the board with the
    stone, before any capture, for both sides' stones on sampled empty points of every position
    of seeded random games: regions that stay whole, end, split or do not; and the structure the
    state keeps against a fresh labelling after every action (placements, captures, removals)."""
    from territory_envs.games.asli.structure import (MEMO_DTYPE, arcs_round, asli_structure, label_structure,
                                                     memo_size, structure_after_stone, structure_view)
    game = make_game("asli", board_size=size, komi=2)
    geo = game.geometry
    n = geo.num_cells
    rng = np.random.default_rng(size)
    seen = set()  # (arcs round p: 0, 1 or more; does the region fall into parts)
    for _ in range(12 if size < 9 else 4):
        state = game.new_state()
        while not state.is_terminal():
            board = state.board.copy()
            memo = np.zeros(memo_size(n, 4), dtype=MEMO_DTYPE)
            label_structure(board, memo, geo.on_board, geo.neighbours, geo.degree)
            for p in np.flatnonzero(board == 0)[rng.random(int((board == 0).sum())) < 0.3]:
                for side in (0, 1):
                    out = memo.copy()
                    after = board.copy()
                    after[p] = side + 1
                    new = structure_after_stone(structure_view(out, n, 4), out, after, p, side, arcs_round(board, p),
                                                geo.neighbours, geo.degree)
                    fresh = asli_structure(after, geo.on_board, geo.neighbours, geo.degree)
                    assert structure_facts(new, after) == structure_facts(structure_view(out, n, 4), after) == \
                        structure_facts(fresh, after)
                    parts = {int(fresh.labels[x]) for x in geo.neighbours[p, :geo.degree[p]] if board[x] == 0}
                    seen.add((min(arcs_round(board, p), 2), len(parts) > 1))
            state.apply(int(rng.choice(state.legal_actions())))
            kept = structure_view(state.memo, n, 4)
            assert state.memo[0] == 1
            assert structure_facts(kept, state.board) == structure_facts(
                asli_structure(state.board, geo.on_board, geo.neighbours, geo.degree), state.board)
    assert seen == {(0, False), (1, False), (2, False), (2, True)}  # every way a region can go is tested


def test_arcs_round_a_point_read_the_corners():
    """Two empty neighbours joined round the point by the empty corner between them are one arc;
    with that corner taken they are two (the region may split); no empty neighbour, no arc."""
    from territory_envs.games.asli.structure import arcs_round
    board = np.ones((5, 5), dtype=np.int8)
    board[1:3, 2:4] = 0  # c4 d4 / c3 d3 empty (rows from the top)
    flat = board.reshape(-1)
    assert arcs_round(flat, 1 * 5 + 2) == 1  # its neighbours d4 and c3 are joined by d3
    board[2, 3] = 2
    assert arcs_round(flat, 1 * 5 + 2) == 2  # d3 taken: d4 and c3 are two arcs
    board[:] = 1
    board[2, 2] = 0
    assert arcs_round(flat, 2 * 5 + 2) == 0  # no empty neighbour: the region is the point
    board[2, 3] = 0
    assert arcs_round(flat, 2 * 5 + 2) == 1  # one neighbour: one arc
    board[2, 1] = board[1, 2] = board[3, 2] = 0
    assert arcs_round(flat, 2 * 5 + 2) == 4  # four neighbours, four corners taken
    assert arcs_round(np.zeros(25, dtype=np.int8), 0) == 1  # a corner of the empty board


def test_kept_structure_where_stones_flood_their_region_for_parts():
    """From 8x8 up a stone that may split its region floods it for its parts instead of labelling
    the board (FLOOD_PARTS_FROM): on 13x13 the kept structure equals a fresh labelling after every
    action of random games, and the mask equals one made from scratch."""
    from territory_envs.games.asli.turn import FLOOD_PARTS_FROM
    from territory_envs.games.asli.structure import arcs_round, asli_structure, structure_view
    game = make_game("asli", board_size=13)
    geo = game.geometry
    n = geo.num_cells
    assert n >= FLOOD_PARTS_FROM
    rng = np.random.default_rng(13)
    flooded = 0
    for _ in range(2):
        state = game.new_state()
        while not state.is_terminal():
            action = int(rng.choice(state.legal_actions()))
            flooded += action < n and arcs_round(state.board, action) >= 2
            state.apply(action)
            assert structure_facts(structure_view(state.memo, n, 4), state.board) == structure_facts(
                asli_structure(state.board, geo.on_board, geo.neighbours, geo.degree), state.board)
            if not state.is_terminal():
                fresh = game.state_from_dict(state.to_dict())
                assert np.array_equal(fresh.legal_mask(), state.legal_mask())
    assert flooded > 20
