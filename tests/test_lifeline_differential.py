"""Differential test of Lifeline: the fast engine (local legal rule where every group lives, exact
simulation elsewhere) against the slow reference written from the rule text
(tests/reference/lifeline_reference.py) over seeded random games at sides 3, 4, 5 and 7 in the
three pies: legal sets, the board, swaps, komi and the winner at every step."""
import numpy as np
import pytest

from territory_envs import make_game
from tests.reference.lifeline_reference import ReferenceLifeline

# (side, games per pie)
SIZES = [(3, 45), (4, 30), (5, 20), pytest.param(7, 5, marks=pytest.mark.slow)]
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


def test_local_rule_agrees_with_exact_simulation_on_large_boards():
    """Where every group lives, the ring argument's local rule equals exact simulation (side 9)."""
    from territory_envs.games.lifeline import analyse, exact_single_mask
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
    """Two ``memo`` arrays (lifeline.py) describe the same position: the same partition into
    regions and into groups (labels may differ, but each is a cell of its own region or group),
    the same group counts per region, the same life per group, the same placements per colour."""
    from territory_envs.games import lifeline as rules
    n = board.size
    for block, counts in ((rules.REGION, (rules.BLACK_GROUPS, rules.WHITE_GROUPS)), (rules.GROUP, (rules.LIFE,))):
        a, b = kept[block * n:(block + 1) * n], whole[block * n:(block + 1) * n]
        pairs = {(int(x), int(y)) for x, y in zip(a, b)}
        assert len({x for x, _ in pairs}) == len({y for _, y in pairs}) == len(pairs), "partitions differ"
        for x, y in pairs:
            assert (x < 0) == (y < 0)
            assert x < 0 or a[x] == x, "a label is a cell of its region or group"
            for c in counts if x >= 0 else ():
                assert kept[c * n + x] == whole[c * n + y], (block, c)
    placeable = slice((rules.LIFE + 1) * n, None)  # per cell, and the counts
    assert (kept[placeable] == whole[placeable]).all(), "placements differ"
    return True


@pytest.mark.parametrize("side,games", [(4, 40), (5, 30), (6, 20), (9, 6)])
def test_usual_turn_keeps_the_facts_of_the_position_analysed_whole(side, games):
    """At every usual turn of seeded random games the incremental turn (``usual_turn``) removes the
    stones that the whole turn (``play_stone``: place, settle, analyse) removes, and keeps every
    derived fact equal to those of the position analysed whole (memo, links, living stones, the
    opponent's placements, whether every group lives), captures included."""
    from territory_envs.games import lifeline as rules
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
            legal, all_alive = rules.usual_turn(board, action, state.to_move, memo, links, alive, mask,
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


@pytest.mark.parametrize("budget", [6, 32, 10_000])
def test_arcs_rejoin_tells_a_region_that_splits_from_one_that_closes_round_a_stone(budget):
    """``arcs_rejoin`` at every empty cell p whose empty neighbours form two or three arcs, in
    positions of seeded random games: True only if R - p is one region (any budget), and with room
    enough, exactly when it is; the labels it borrows are given back."""
    from territory_envs.core.kernels import label_regions
    from territory_envs.games import lifeline as rules
    game = make_game("lifeline", board_size=5)
    geo = game.geometry
    n = geo.num_cells
    rng = np.random.default_rng(budget)
    ring = np.empty(6, np.int32)
    work = np.empty(3 * (budget + 12) + 9, np.int32)
    verdicts = {True: 0, False: 0}
    for _ in range(12):
        state = game.new_state()
        while not state.is_terminal():
            if state.pending < 0 and all(state.first_turn_done):
                board, memo = state.board, state.memo.copy()
                for p in np.flatnonzero((board == 0) & geo.on_board):
                    rules.ring_of(p, geo.width, geo.neighbours, geo.degree, ring)
                    empty = [x >= 0 and board[x] == 0 for x in ring]
                    arcs = sum(empty[k] and not empty[k - 1] for k in range(6))
                    if arcs < 2:
                        continue
                    before = memo.copy()
                    joined = rules.arcs_rejoin(board, p, ring, memo[p], memo, geo.neighbours, geo.degree, work,
                                               budget)
                    assert (memo == before).all()
                    filled = board.copy()
                    filled[p] = 1
                    labels, _ = label_regions(filled, geo.on_board, geo.neighbours, geo.degree)
                    one_region = len({labels[x] for x in ring if x >= 0 and board[x] == 0}) == 1
                    assert one_region or not joined
                    if budget > n:
                        assert joined == one_region
                    verdicts[joined] += 1
            state.apply(int(rng.choice(state.legal_actions())))
    assert min(verdicts.values()) > 20, verdicts
