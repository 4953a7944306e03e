"""Lifeline rule scenarios: every sentence of the rule text and every Lifeline ruling, on hand-built
positions (stones in notation: column letter of the embedding grid, row number from the bottom;
on side 3 the rows are c5-e5 / b4-e4 / a3-e3 / a2-d2 / a1-c1, on side 4 d7-g7 ... a1-d1)."""
import numpy as np
import pytest

from territory_envs import IllegalActionError, make_game
from tests.positions import lifeline_position, stone_names


def cell(state, name):
    return state.game.notation_to_action(name)


def swap(state):
    return state.game.num_cells


def spend(state):
    return state.game.num_cells + 1


# --- strong pie: double first placements and the swap -------------------------------------------
def test_strong_pie_first_stone_anywhere_and_no_special_action():
    s = make_game("lifeline", board_size=5).new_state()
    assert len(s.legal_actions()) == 61 and not s.mask[swap(s)] and not s.mask[spend(s)]


@pytest.mark.parametrize("first,neighbours", [("e5", 6), ("a1", 3), ("a3", 4)])
def test_second_stone_may_not_touch_the_first(first, neighbours):
    s = make_game("lifeline", board_size=5).new_state()
    s.apply(cell(s, first))
    assert s.to_move == 0 and s.current_player == 0  # the same agent acts again
    geo = s.game.geometry
    p = cell(s, first)
    adjacent = set(geo.neighbours[p, :geo.degree[p]].tolist())
    assert len(adjacent) == neighbours
    assert set(s.legal_actions().tolist()) == set(np.flatnonzero(geo.on_board).tolist()) - adjacent - {p}
    assert s.observation(0)[0, 0, 8] == 1  # the second-stone plane


def test_second_stone_may_touch_the_first_when_the_pair_removes_an_enemy_group():
    # a loaded position: White's first turn, its first stone on c3, and a lone black stone on a1,
    # dead. Any second stone removes a1 (enemy groups go first), so the board changes even where
    # the pair then dies as White's only group: the stones next to c3 are legal too.
    c3 = make_game("lifeline", board_size=3).geometry.from_notation("c3")
    s = lifeline_position(3, black=["a1"], white=["c3"], to_move="white", first_turn_done=[True, False],
                          pending=c3)
    geo = s.game.geometry
    touching = geo.neighbours[c3, :geo.degree[c3]].tolist()
    assert set(s.legal_actions().tolist()) == set(np.flatnonzero(geo.on_board).tolist()) - {c3, cell(s, "a1")}
    s.apply(touching[0])
    assert stone_names(s, 1) == [] and stone_names(s, 2) == []  # a1 goes, then the lone pair


def test_white_may_swap_only_on_its_first_turn_before_its_first_stone():
    s = make_game("lifeline", board_size=5).new_state()
    s.apply(cell(s, "e5")).apply(cell(s, "b2"))
    assert s.to_move == 1 and s.mask[swap(s)] == 1 and s.mask[spend(s)] == 0
    t = s.clone().apply(cell(s, "h8"))
    assert t.mask[swap(t)] == 0  # no swap between the two stones
    with pytest.raises(IllegalActionError):
        t.apply(swap(t))


def test_swap_exchanges_sides_and_white_plays_its_double_first_turn():
    s = make_game("lifeline", board_size=5).new_state()
    s.apply(cell(s, "e5")).apply(cell(s, "b2"))
    assert s.current_player == 1
    s.apply(swap(s))
    assert s.flip == 1 and s.to_move == 1 and s.current_player == 0  # player_0 now holds White
    assert s.side_of(0) == 1 and s.side_of(1) == 0
    assert s.mask[swap(s)] == 0  # only once
    assert stone_names(s, 1) == ["b2", "e5"]  # the board stays
    s.apply(cell(s, "h8"))
    assert s.current_player == 0 and s.pending >= 0
    s.apply(cell(s, "b6"))
    assert s.to_move == 0 and s.current_player == 1  # Black (player_1) plays single stones now
    s.apply(cell(s, "d4"))
    assert s.to_move == 1 and s.pending < 0


def test_swap_and_the_winner():
    s = lifeline_position(3, black=["d5", "a3", "b3", "e3", "b2", "c1"],
                          white=["b4", "d4", "e4", "d3", "c2", "b1"], flip=1)
    s.apply(cell(s, "c4"))
    assert s.is_terminal() and s.winner == 0
    assert s.returns().tolist() == [-1.0, 1.0]  # Black is player_1 after a swap


# --- groups, death and the order of removal --------------------------------------------------------
KILL = dict(black=["d5", "a3", "b3", "e3", "b2", "c1"], white=["b4", "d4", "e4", "d3", "c2", "b1"])


def test_placement_that_cuts_enemy_links_removes_them_and_revives_the_mover():
    s = lifeline_position(3, **KILL)
    assert s.mask[cell(s, "c4")] == 1
    s.apply(cell(s, "c4"))
    # c4 joins d5 and a3-b3-b2 into a group whose regions touch no other black group: dead until
    # the white groups (which lost every link) are removed first, which joins it to e3 and c1
    assert stone_names(s, 2) == []
    assert stone_names(s, 1) == ["a3", "b2", "b3", "c1", "c4", "d5", "e3"]


def test_player_with_no_groups_has_no_placement_and_loses():
    s = lifeline_position(3, **KILL)
    s.apply(cell(s, "c4"))
    assert s.is_terminal() and s.winner == 0 and s.legal_mask().sum() == 0
    assert s.returns().tolist() == [1.0, -1.0]


SUICIDE = dict(white=["b2", "a3", "b3", "c1", "c2", "e5"], black=["a2", "b1"])


def test_suicide_that_also_kills_other_own_groups_is_legal():
    s = lifeline_position(4, **SUICIDE)
    assert s.mask[cell(s, "a1")] == 1
    s.apply(cell(s, "a1"))  # a1 merges a2 and b1 into one group with no partner: all three die
    assert stone_names(s, 1) == [] and stone_names(s, 2) == sorted(SUICIDE["white"])
    assert not s.is_terminal() and s.to_move == 1  # White still places; then Black cannot
    s.apply(int(s.legal_actions()[0]))
    assert s.is_terminal() and s.winner == 1


def test_placement_whose_only_removed_stone_is_itself_is_illegal():
    s = lifeline_position(4, white=["a2", "b1", "b2", "e5"], black=["d4", "f6"])
    assert s.mask[cell(s, "a1")] == 0  # a1's region touches only White
    assert len(s.legal_actions()) == 37 - 6 - 1
    before = s.to_dict()
    with pytest.raises(IllegalActionError):
        s.apply(cell(s, "a1"))
    assert s.to_dict() == before
    t = lifeline_position(4, white=["a2", "b1", "b2", "e5"], black=["d4", "f6"], to_move="white")
    assert t.mask[cell(t, "a1")] == 1 and len(t.legal_actions()) == 37 - 6


def test_lone_group_is_dead_and_two_groups_sharing_a_region_live():
    s = lifeline_position(4, black=["d4"], white=["a1", "g7"], pie="weak", removal_on=False)
    obs = s.observation(0)  # player_0 plays Black
    d4 = divmod(cell(s, "d4"), 7)
    a1 = divmod(cell(s, "a1"), 7)
    assert obs[d4][0] == 1 and obs[d4][4] == 0  # own stone, not alive: a lone group
    assert obs[a1][1] == 1 and obs[a1][5] == 1  # White's two groups share the big region


def test_links_plane_marks_cells_next_to_two_own_groups():
    s = lifeline_position(4, black=["c4", "e4"], white=["a1", "g7"])
    obs = s.observation(0)
    d4 = divmod(cell(s, "d4"), 7)
    d5 = divmod(cell(s, "d5"), 7)
    assert obs[d4][6] == 1  # d4 touches c4 and e4
    assert obs[d5][6] == 0  # d5 touches c4 only (its neighbours: d6 d4 c5 e5 e6 c4)


# --- weak pie ----------------------------------------------------------------------------------------
def weak(side=3):
    return make_game("lifeline", board_size=side, pie="weak").new_state()


def test_weak_pie_single_stones_and_swap_after_blacks_first_stone():
    s = weak()
    assert s.mask[swap(s)] == 0
    s.apply(cell(s, "c3"))
    assert s.to_move == 1 and s.mask[swap(s)] == 1 and s.mask[spend(s)] == 0
    assert len(s.legal_actions()) == 18 + 1  # every empty cell (no removal yet) and swap
    s.apply(swap(s))
    assert s.to_move == 1 and s.current_player == 0 and s.mask[swap(s)] == 0
    s.apply(cell(s, "a1"))
    assert s.to_move == 0 and s.current_player == 1


def test_weak_pie_no_removal_until_four_stones():
    s = weak()
    s.apply(cell(s, "c5")).apply(cell(s, "a1")).apply(cell(s, "d5"))
    # c5-d5 is a lone (dead) black group, a1 a lone white one: nothing is removed yet
    assert stone_names(s, 1) == ["c5", "d5"] and stone_names(s, 2) == ["a1"] and not s.removal_on
    s.apply(cell(s, "c1"))  # the fourth stone: this turn removes
    assert s.removal_on
    assert stone_names(s, 1) == [] and stone_names(s, 2) == ["a1", "c1"]
    assert s.is_terminal() and s.winner == 1  # Black has no group left to place beside


def test_weak_pie_removal_stays_on_when_fewer_stones_remain():
    s = weak(4)
    s.apply(cell(s, "d4")).apply(cell(s, "a1")).apply(cell(s, "g7"))
    s.apply(cell(s, "a2"))  # a1-a2: one lone white group, removed by White's own turn
    assert stone_names(s, 2) == [] and stone_names(s, 1) == ["d4", "g7"]
    assert s.removal_on and np.count_nonzero(s.board) == 2
    assert s.to_move == 0 and not s.is_terminal()
    s.apply(cell(s, "b2"))
    assert s.is_terminal() and s.winner == 0  # White has no groups: no legal placement


def test_weak_pie_fourth_stone_is_judged_with_removal():
    s = weak()
    s.apply(cell(s, "c5")).apply(cell(s, "a1")).apply(cell(s, "e3"))
    # White's fourth stone switches removal on. Next to a1 (a2) it makes a lone group that dies,
    # but a1 dies with it, so the board changes: legal, and both stones go
    assert len(s.legal_actions()) == 16
    s.apply(cell(s, "a2"))
    assert stone_names(s, 2) == [] and stone_names(s, 1) == ["c5", "e3"]
    assert not s.is_terminal()
    s.apply(cell(s, "c3"))
    assert s.is_terminal() and s.winner == 0


# --- komi pie ----------------------------------------------------------------------------------------
def test_komi_pie_has_no_swap_and_no_spend_before_four_stones():
    s = make_game("lifeline", board_size=4, pie="komi", komi=2).new_state()
    s.apply(cell(s, "d4"))
    assert s.mask[swap(s)] == 0 and s.mask[spend(s)] == 0
    s.apply(cell(s, "a1")).apply(cell(s, "g7"))
    assert s.to_move == 1 and s.mask[spend(s)] == 0  # three stones: removal not yet on


def test_komi_pie_white_spends_instead_of_placing():
    s = make_game("lifeline", board_size=4, pie="komi", komi=2).new_state()
    for name in ("d4", "a1", "g7", "d1", "a4"):
        s.apply(cell(s, name))
    assert s.removal_on and s.to_move == 1 and s.mask[spend(s)] == 1
    board = s.board.copy()
    s.apply(spend(s))
    assert s.komi_left == 1 and s.to_move == 0 and (s.board == board).all()
    assert s.mask[spend(s)] == 0  # never for Black
    s.apply(cell(s, "c5"))
    s.apply(spend(s))
    assert s.komi_left == 0
    s.apply(cell(s, "e5"))
    assert s.mask[spend(s)] == 0  # no komi left
    assert s.observation(0)[0, 0, 13] == 0


def test_komi_pie_no_spend_without_a_legal_placement():
    s = lifeline_position(3, pie="komi", komi=3, to_move="white", black=["c3", "e5"], komi_left=3,
                          reachable=False)  # a game would have ended here: the mask is the question
    # White has no group: no placement, so no spend either, and White loses
    assert s.legal_mask().sum() == 0
    s2 = lifeline_position(3, pie="komi", komi=3, black=["d5", "a3", "b3", "e3", "b2", "c1"],
                           white=["b4", "d4", "e4", "d3", "c2", "b1"], komi_left=3)
    s2.apply(cell(s2, "c4"))  # removes every white stone
    assert s2.is_terminal() and s2.winner == 0 and s2.komi_left == 3


def test_komi_plane_and_option_checks():
    s = make_game("lifeline", board_size=3, pie="komi", komi=19).new_state()
    assert s.observation(1)[0, 0, 13] == 100 and s.observation(1)[0, 0, 11] == 1
    with pytest.raises(ValueError, match="komi"):
        make_game("lifeline", pie="komi", komi=1.5)
    with pytest.raises(ValueError, match="pie"):
        make_game("lifeline", pie="medium")


@pytest.mark.parametrize("pie", ["strong", "weak", "komi"])
def test_observation_planes_mean_what_the_table_says(pie):
    """Each plane recomputed from the reference engine's reading of the same position."""
    from tests.reference.lifeline_reference import ReferenceLifeline
    komi = 5 if pie == "komi" else 0  # the other pies refuse a komi
    game = make_game("lifeline", board_size=4, pie=pie, komi=komi)
    geo = game.geometry
    rng = np.random.default_rng(11)
    for stop in (1, 3, 9, 16):
        state, ref = game.new_state(), ReferenceLifeline(4, pie, komi)
        for _ in range(stop):
            if state.is_terminal():
                break
            action = int(rng.choice(state.legal_actions()))
            state.apply(action)
            ref.play(action)
        dead = {geo.cell(r, c) for group in ref.dead_groups() for r, c in group}
        for player in (0, 1):
            side = state.side_of(player)
            obs = state.observation(player).reshape(geo.num_cells, -1)
            own, opp = (state.board == side + 1), (state.board == 2 - side)
            alive = np.array([i not in dead for i in range(geo.num_cells)])
            assert (obs[:, 0] == own).all() and (obs[:, 1] == opp).all()
            assert (obs[:, 2] == (geo.on_board & (state.board == 0))).all() and (obs[:, 3] == geo.on_board).all()
            assert (obs[:, 4] == (own & alive)).all() and (obs[:, 5] == (opp & alive)).all()
            for i in np.flatnonzero(geo.on_board & (state.board == 0)):
                groups = {frozenset(g) for g in _own_groups(ref, side) for nb in geo.neighbours[i, :geo.degree[i]]
                          if divmod(int(nb), geo.width) in g}
                assert obs[i, 6] == (len(groups) >= 2)
            legal = set(ref.legal_moves()) if side == ref.to_move and not ref.over else set()
            assert set(np.flatnonzero(obs[:, 7]).tolist()) == {a for a in legal if a < geo.num_cells}
            assert (obs[:, 8] == (ref.pending is not None)).all()
            assert (obs[:, 9] == int(ref.swap_legal())).all()
            assert (obs[:, 10] == (pie == "weak")).all() and (obs[:, 11] == (pie == "komi")).all()
            assert (obs[:, 12] == ref.removal_on).all()
            assert (obs[:, 13] == min(100, round(100 * ref.komi_left / 37))).all()
            assert (obs[:, 14] == side).all()


def _own_groups(ref, side):
    return ref.groups(ref.board, side)
