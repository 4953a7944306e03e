"""Linage rule scenarios: hand-built positions ('#' stone, '.' empty; (row, col) with row 0 on top)
with the expected legal set, ownership, end and score."""
import numpy as np
import pytest

from territory_envs import IllegalActionError
from territory_envs.games.linage.layout import FREE, HORIZONTAL_OWNS, VERTICAL_OWNS
from tests.positions import cells_at, linage_position


def placements(state):
    return state.legal_actions().tolist()[:-1]


def test_empty_board_every_point_and_pass_legal():
    s = linage_position(["....", "....", "....", "...."])
    assert s.legal_actions().tolist() == list(range(17))
    assert s.free_regions == 1 and s.scores() == (0, 0.5)


def test_placement_may_not_cut_off_a_part_without_a_line():
    s = linage_position(["...#.", "##.#.", ".....", ".....", "....."])
    illegal = set(np.flatnonzero(s.board == 0).tolist()) - set(placements(s))
    # b5 would leave a5 alone, c5 would leave a5-b5 (2 < 3), e4 would leave e5 alone, e3 e5-e4
    assert sorted(illegal) == cells_at(s, (0, 1), (0, 2), (1, 4), (2, 4))


def test_cutting_off_a_part_that_keeps_a_line_is_legal_and_the_part_is_owned():
    s = linage_position(["...#.", "##.#.", ".....", ".....", "....."])
    s.apply(cells_at(s, (1, 2))[0])  # cuts a5-b5-c5 off: a horizontal line, no vertical one
    assert s.kind[0] == HORIZONTAL_OWNS and s.kind[1] == HORIZONTAL_OWNS and s.kind[2] == HORIZONTAL_OWNS
    assert not set(cells_at(s, (0, 0), (0, 1), (0, 2))) & set(placements(s))  # owned regions are frozen


def test_owned_regions_are_frozen_free_region_playable():
    s = linage_position([".#...", ".#...", ".#...", ".#...", ".#..."])
    assert all(s.kind[r * 5] == VERTICAL_OWNS for r in range(5))
    assert placements(s) == sorted(r * 5 + c for r in range(5) for c in (2, 3, 4))
    assert s.scores() == (5, 0.5)


def test_placement_next_to_the_edge_that_closes_a_corridor():
    s = linage_position(["#....", "#.###", "#....", ".....", "....."])
    # b4 closes the corridor b5..e5 + b4? it would cut off b5-e5 (a horizontal line): legal
    s.apply(cells_at(s, (1, 1))[0])
    assert s.kind[1] == HORIZONTAL_OWNS and s.kind[4] == HORIZONTAL_OWNS


def test_no_free_region_left_ends_the_game():
    s = linage_position([".#..", ".#..", ".#..", "...."], komi=0.5)
    assert not s.is_terminal() and s.free_regions == 1
    s.apply(cells_at(s, (3, 1))[0])
    assert s.is_terminal() and s.free_regions == 0
    assert (s.kind[s.board == 0] == VERTICAL_OWNS).all()
    assert s.scores() == (12, 0.5) and s.winner == 0
    assert s.legal_mask().sum() == 0


def test_horizontal_owns_the_transposed_position():
    s = linage_position(["....", "###.", "....", "...."], to_move="horizontal", komi=0)
    s.apply(cells_at(s, (1, 3))[0])
    assert s.is_terminal() and s.scores() == (0, 12) and s.winner == 1
    assert s.returns().tolist() == [-1.0, 1.0]


@pytest.mark.parametrize("komi,winner", [(12, -1), (12.5, 1), (11.5, 0), (-3, 0)])
def test_komi_and_draws(komi, winner):
    s = linage_position([".#..", ".#..", ".#..", "...."], komi=komi)
    s.apply(cells_at(s, (3, 1))[0])
    assert s.scores() == (12, komi) and s.winner == winner
    assert s.returns().sum() == 0 and (s.returns().tolist() == [0.0, 0.0]) == (winner == -1)


def test_two_passes_end_the_game_and_free_regions_count_for_nobody():
    s = linage_position([".#...", ".#...", ".#...", ".#...", ".#..."], komi=0.5)
    s.apply(25)
    assert not s.is_terminal() and s.passes == 1
    assert (s.observation(1)[..., 11] == 1).all()  # Horizontal sees that Vertical passed
    s.apply(25)
    assert s.is_terminal() and s.scores() == (5, 0.5) and s.winner == 0


def test_a_placement_between_passes_resets_the_count():
    s = linage_position(["....", "....", "....", "...."])
    s.apply(16).apply(5).apply(16)
    assert not s.is_terminal() and s.passes == 1
    s.apply(16)
    assert s.is_terminal()


def test_line_length_two():
    s = linage_position(["...", "...", "..."], line_length=2)
    assert len(placements(s)) == 9
    # the empty points form a path a3-b3 / a2 / a1-b1-c1 / c2; only the two placements that would
    # leave an end point alone (b3 alone after a3, c2 alone after c1) are illegal
    s = linage_position(["..#", ".#.", "..."], line_length=2)
    assert placements(s) == cells_at(s, (0, 1), (1, 0), (2, 0), (2, 1), (1, 2))


def test_line_length_four():
    s = linage_position(["....", "....", "....", "...."], line_length=4)
    assert len(placements(s)) == 16
    s.apply(0)  # kills row 1 and column 1 of lines; rows 2-4 and columns b-d remain
    assert s.free_regions == 1 and len(placements(s)) == 15
    s = linage_position(["#...", "....", "....", "...#"], line_length=4)
    # lines left: rows 2 and 3, columns b and c; a stone on b3 kills row 3 and column b only
    assert s.free_regions == 1
    assert cells_at(s, (1, 1))[0] in placements(s)


def test_line_length_five_full_rows_and_columns():
    s = linage_position(["#....", ".#...", "..#..", "...#.", "....."], line_length=5)
    illegal = set(np.flatnonzero(s.board == 0).tolist()) - set(placements(s))
    # the diagonal splits the region into two triangles joined only at e1; the last lines are row 1
    # (lower triangle + e1) and column e (upper triangle + e1). Illegal: e1 (kills both lines),
    # e3, e2 (cut the upper triangle from column e), c1, d1 (the lower one from row 1), and c5, a3
    # (wall in b5 / a4 alone)
    assert sorted(illegal) == cells_at(s, (4, 4), (2, 4), (3, 4), (4, 2), (4, 3), (0, 2), (2, 0))
    s.apply(cells_at(s, (4, 0))[0])  # kills the last horizontal line: Vertical owns everything
    assert s.is_terminal() and s.scores() == (20, 0.5)


def test_illegal_placement_raises_and_changes_nothing():
    s = linage_position(["...#.", "##.#.", ".....", ".....", "....."])
    before = s.to_dict()
    for cell in (cells_at(s, (0, 1))[0], 3, cells_at(s, (1, 4))[0]):
        with pytest.raises(IllegalActionError):
            s.apply(cell)
        assert s.to_dict() == before


def test_the_mask_is_the_same_for_both_sides():
    s = linage_position(["...#.", "##.#.", ".....", ".....", "....."])
    t = linage_position(["...#.", "##.#.", ".....", ".....", "....."], to_move="horizontal")
    assert (s.legal_mask() == t.legal_mask()).all()


def test_observation_planes_mean_what_the_table_says():
    s = linage_position(["...#.", "##.#.", ".....", ".....", "....."], komi=2.5)
    s.apply(cells_at(s, (1, 2))[0])  # Vertical cut off a horizontal-owned strip; Horizontal to move
    for player in (0, 1):
        side = s.side_of(player)
        obs = s.observation(player).reshape(25, -1)
        own = HORIZONTAL_OWNS if side else VERTICAL_OWNS
        opp = VERTICAL_OWNS if side else HORIZONTAL_OWNS
        assert (obs[:, 0] == (s.board == 1)).all() and (obs[:, 1] == (s.board == 0)).all()
        assert (obs[:, 2] == 1).all()
        assert (obs[:, 3] == (s.kind == own)).all() and (obs[:, 4] == (s.kind == opp)).all()
        assert (obs[:, 5] == (s.kind == FREE)).all()
        assert obs[0, 6] == 1 and obs[0, 7] == 0  # a5 lies on the strip's horizontal line only
        assert (obs[:, 8] == (s.mask[:25] if side == s.to_move else 0)).all()
        assert (obs[:, 9] == side).all() and (obs[:, 10] == round(100 * 2.5 * (1 if side else -1) / 25)).all()
        assert (obs[:, 11] == 0).all()
    assert s.observation(1)[0, 0, 3] == 1  # Horizontal owns a5
