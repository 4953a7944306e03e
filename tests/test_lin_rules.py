"""Lin rule scenarios: hand-built positions with the expected legal set, removals, end and score.
Coordinates: 'a1' is the bottom-left point, row numbers grow upwards (row 5 is the top of a 5x5)."""
import pytest

from territory_envs import IllegalActionError
from tests.positions import legal_names, lin_position, picture, points

EMPTY5 = [".....", ".....", ".....", ".....", "....."]


def test_empty_board_every_point_legal_and_contested():
    s = lin_position(EMPTY5)
    assert len(s.legal_actions()) == 25
    assert s.contested == 25 and s.scores() == (25, 25)


def test_line_length_equal_to_board_size_needs_a_full_row_or_column():
    s = lin_position(["..O..", ".....", ".....", ".....", "....."], line_length=5)
    # White's domain is all: rows 2..5 are full; Black's domain lost column c but keeps row 1
    assert len(s.legal_actions()) == 24


def test_own_domain_without_a_line_is_not_playable():
    s = lin_position(["..O..", "..O..", "OOO..", ".....", "....."])
    # Black's corner domain a5 b5 a4 b4 has no 4 in a row: no black placement there
    assert not set(points(s, "a5", "b5", "a4", "b4")) & set(s.legal_actions())
    assert len(s.legal_actions()) == 25 - 5 - 4


def test_white_may_play_in_the_corner_black_cannot():
    s = lin_position(["..O..", "..O..", "OOO..", ".....", "....."], to_move="white")
    assert len(s.legal_actions()) == 20  # every empty point: White's domain is the whole board minus nothing


def test_large_dead_domain_has_no_legal_point():
    s = lin_position(["...O.", "...O.", "...O.", "OOOO.", "....."])
    # the 3x3 corner holds no line of 4: dead for Black
    assert legal_names(s) == sorted(["e5", "e4", "e3", "e2", "a1", "b1", "c1", "d1", "e1"])


def test_line_may_run_through_own_stones():
    s = lin_position(["XXX.O", "OOOOO", ".....", ".....", "....."])
    assert "d5" in legal_names(s)  # a5..d5 is a line of 4 (3 stones, 1 empty point)
    s5 = lin_position(["XXX.O", "OOOOO", ".....", ".....", "....."], line_length=5, reachable=False)
    assert "d5" not in legal_names(s5)


def test_placement_removes_enemy_stone_in_dead_domain():
    s = lin_position(["OX...", ".....", ".....", ".....", "....."])
    s.apply(points(s, "a4")[0])
    assert picture(s)[0] == ".X..." and picture(s)[1] == "X...."


def test_placement_removes_a_whole_dead_group_with_its_empty_point():
    s = lin_position(["OOX..", ".X...", ".....", ".....", "....."])
    s.apply(points(s, "a3")[0])
    assert picture(s)[:3] == ["..X..", ".X...", "X...."]
    # the freed corner now belongs to Black's living domain only: White may not play there
    assert not set(points(s, "a5", "b5", "a4")) & set(s.legal_actions())


def test_short_lines_keep_small_domains_alive():
    s = lin_position(["OOX..", ".X...", ".....", ".....", "....."], line_length=2)
    s.apply(points(s, "a3")[0])
    assert picture(s)[0] == "OOX.."  # a5 b5 is a line of 2: the stones live


def test_line_length_two_only_isolated_points_die():
    s = lin_position(["O.X..", "X....", ".....", ".....", "....."], line_length=2)
    s.apply(points(s, "b5")[0])
    assert picture(s)[0] == ".XX.."


def test_one_placement_splits_a_domain_and_removes_stones_of_both_halves():
    s = lin_position(["O...O", "XXXXX", ".....", ".....", "....."], line_length=3)
    assert s.alive[1, 0] and s.alive[1, 4]  # White's top row is a line of 5
    s.apply(points(s, "c5")[0])  # splits it into a5-b5 and d5-e5, both shorter than 3
    assert picture(s)[0] == "..X.."


def test_own_stones_are_never_removed():
    s = lin_position(["XO...", "O....", ".....", ".....", "....."], to_move="white", line_length=3,
                     reachable=False)
    before = picture(s)
    s.apply(points(s, "e1")[0])
    assert picture(s)[0] == ".O..." and picture(s)[1] == "O...." and picture(s)[4] == "....O"
    assert before[0][0] == "X"


def test_dead_stones_set_up_by_hand_go_even_when_the_placement_touches_no_enemy_domain():
    # a5 is a dead black stone in a position set up by hand; e1 lies in no living black domain, so
    # the placement changes none of Black's domains, yet it must remove a5
    s = lin_position(["XO...", "O....", ".....", "...OO", "...O."], to_move="white", line_length=3,
                     reachable=False)
    assert not s.alive[0][points(s, "e1")[0]]
    s.apply(points(s, "e1")[0])
    assert picture(s)[0] == ".O..." and picture(s)[4] == "...OO"


def test_mask_for_next_player_is_computed_after_removals():
    s = lin_position(["OOX..", ".X...", ".....", ".....", "....."])
    s.apply(points(s, "a3")[0])
    assert s.to_move == 1
    assert set(points(s, "c3", "e1")) <= set(s.legal_actions())


GAME_ENDS = ["XXXOO", "XXXOO", "XXXOO", "XXXOO", "XXX.."]


def test_game_ends_when_no_point_is_contested_and_scores_count_living_domains():
    s = lin_position(GAME_ENDS, to_move="white", line_length=3)
    assert not s.is_terminal() and s.contested == 2  # d1, e1 lie in both colours' domains
    s.apply(points(s, "d1")[0])
    assert s.is_terminal() and s.contested == 0
    assert s.scores() == (15, 10)  # e1 is White's (Black's e1 domain is dead)
    assert s.winner == 0 and s.returns().tolist() == [1.0, -1.0]
    assert s.legal_mask().sum() == 0
    with pytest.raises(IllegalActionError, match="over"):
        s.apply(points(s, "e1")[0])


@pytest.mark.parametrize("komi,winner,returns", [(4, 0, [1.0, -1.0]), (5, -1, [0.0, 0.0]),
                                                 (6, 1, [-1.0, 1.0]), (-2, 0, [1.0, -1.0])])
def test_komi_decides_and_a_tie_is_a_draw(komi, winner, returns):
    s = lin_position(GAME_ENDS, to_move="white", line_length=3, komi=komi)
    s.apply(points(s, "d1")[0])
    assert s.scores() == (15, 10 + komi)
    assert s.winner == winner and s.returns().tolist() == returns


def test_illegal_placements_raise_and_leave_the_state_alone():
    s = lin_position(["..O..", "..O..", "OOO..", ".....", "....."])
    before = s.to_dict()
    for name in ("c5", "a5"):  # occupied; in a dead domain of Black
        with pytest.raises(IllegalActionError):
            s.apply(points(s, name)[0])
        assert s.to_dict() == before


def test_swap_sides_puts_player_1_on_black():
    s = lin_position(EMPTY5)
    t = s.game.new_state(swap_sides=True)
    assert t.current_player == 1 and t.side_of(1) == 0
    t.apply(12)
    assert t.current_player == 0 and t.side_of(0) == 1


def test_real_sizes_and_defaults():
    from territory_envs import make_game
    g = make_game("lin")
    assert g.options == {"board_size": 9, "line_length": 6, "komi": 0, "max_moves": 1620}
    s = g.new_state()
    assert len(s.legal_actions()) == 81
    g25 = make_game("lin", board_size=25, line_length=25)
    assert len(g25.new_state().legal_actions()) == 625
