"""Asli rule scenarios: hand-built positions and short games for every rule of asli.txt and every
Asli ruling (pictures list rows from the top: on 4x4 the first row is row 4, 'a' is the left)."""
import numpy as np
import pytest

from territory_envs import IllegalActionError, make_game
from tests.positions import asli_position, names_of, picture, replay


def remove(state):
    return state.game.num_cells


def cell(state, name):
    return state.game.notation_to_action(name)


# --- first turns: two stones, capturing after each ---------------------------------------------------
def test_first_stone_anywhere_and_no_removal_without_prisoners():
    s = make_game("asli", board_size=5).new_state()
    assert s.legal_actions().tolist() == list(range(25))


def test_second_stone_may_not_touch_the_first():
    s = make_game("asli", board_size=5).new_state().apply(12)  # c3
    assert s.to_move == 0 and s.pending == 12 and s.observation(0)[0, 0, 12] == 1
    assert names_of(s, s.legal_actions()) == sorted(
        set(names_of(s, range(25))) - {"c3", "b3", "d3", "c2", "c4"})
    with pytest.raises(IllegalActionError):
        s.apply(cell(s, "b3"))  # one lone group: dead at the end of the turn (suicide)


def test_first_stone_without_any_saving_partner_is_illegal():
    s = replay("asli", ["a2", "b1"], board_size=4)
    # a1 is walled in by a2 and b1: a white stone there can never live, whatever the second stone
    assert s.to_move == 1 and s.mask[cell(s, "a1")] == 0
    assert len(s.legal_actions()) == 13


def test_white_first_turn_pair_captures_and_black_loses_without_action():
    s = replay("asli", ["b4", "a1", "a2"], board_size=4)
    assert s.prison == [0, 0] and s.pending >= 0  # the first white stone captured nothing
    s.apply(cell(s, "b1"))  # a1 loses its last region, b4 its last partner: both go to the prison
    assert picture(s) == ["....", "....", "O...", ".O.."] and s.prison == [2, 0]
    assert not s.last_minimal  # two groups captured: no minimal incursion
    assert s.is_terminal() and s.winner == 1  # Black has no stone to live beside, no prisoner
    assert s.returns().tolist() == [-1.0, 1.0]


def test_white_first_turn_spent_on_a_prison_removal_uses_up_the_double_placement():
    s = replay("asli", ["c3", "a1"], board_size=5, komi=2)
    assert s.mask[remove(s)] == 1 and s.observation(1)[0, 0, 9] == round(100 * 2 / 25)
    s.apply(remove(s))
    assert s.prison == [1, 0] and s.first_turn_done == [True, True] and s.to_move == 0
    s.apply(cell(s, "e5"))
    # White has no stone: any single stone is a lone dead group; only the prisoner is left
    assert s.legal_actions().tolist() == [remove(s)]
    s.apply(remove(s)).apply(cell(s, "e1"))
    assert s.is_terminal() and s.winner == 0


def test_komi_stones_start_in_the_prison_for_white_only():
    s = make_game("asli", board_size=5, komi=3).new_state()
    assert s.prison == [3, 0] and s.mask[remove(s)] == 0  # Black may not remove its own stones
    s.apply(0).apply(2)
    assert s.mask[remove(s)] == 1
    assert s.mask[cell(s, "e5")] == 1  # or play its double first turn


# --- captures, incursions, the ban ---------------------------------------------------------------------
BEFORE_MINIMAL = ["X.OX", "XOOX", ".X.X", ".XOO"]


def test_minimal_incursion_captures_one_group():
    s = asli_position(BEFORE_MINIMAL, to_move="white", prison=[0, 1])
    assert s.owner[cell(s, "a2")] == 1 and s.owner[cell(s, "a1")] == 1  # Black's territory
    s.apply(cell(s, "a2"))
    # a4-a3 lose their only region (b4 touches no other black group): one group, two stones
    assert picture(s) == ["..OX", ".OOX", "OX.X", ".XOO"] and s.prison == [2, 1]
    assert s.last_minimal and s.observation(0)[0, 0, 11] == 1


def test_minimal_incursion_is_banned_right_after_one():
    s = asli_position(BEFORE_MINIMAL, to_move="white", prison=[0, 1])
    s.apply(cell(s, "a2"))
    # a3 would capture exactly the lone a2 in White's territory: banned; without the ban, legal
    assert s.mask[cell(s, "a3")] == 0
    free = asli_position(picture(s), to_move="black", prison=[2, 1])
    assert free.mask[cell(free, "a3")] == 1
    with pytest.raises(IllegalActionError):
        s.apply(cell(s, "a3"))


def test_prison_removal_clears_the_ban():
    s = asli_position(BEFORE_MINIMAL, to_move="white", prison=[0, 1])
    s.apply(cell(s, "a2"))
    s.apply(remove(s))  # Black takes the white prisoner instead
    assert not s.last_minimal and s.prison == [2, 0]
    s.apply(remove(s))  # White takes a black one back
    assert s.mask[cell(s, "a3")] == 1  # the ban is gone


def test_capture_that_is_not_an_incursion():
    s = asli_position(["XXXXX", "XO.OX", "XXXXX", ".....", "..X.."])
    assert s.owner[cell(s, "c4")] == 0  # c4 touches both colours: nobody's
    s.apply(cell(s, "c4"))
    assert s.prison == [0, 2] and not s.last_minimal  # two groups, and no incursion anyway
    assert picture(s)[1] == "X.X.X"


def test_placement_leaving_a_friendly_group_dead_is_illegal():
    s = asli_position(["XXXXX", "XO.OX", "XXXXX", ".....", "..X.."], to_move="white", reachable=False)
    # c4 would join b4 and d4 into one group with no region left: illegal, nothing captured
    assert s.mask[cell(s, "c4")] == 0
    assert s.legal_actions().tolist() == []  # no White stone can live below either
    # ... so White, to move with no legal action, has lost: the engine says so at the turn's start
    t = asli_position(["XXXXX", "XO.OX", "XXXXX", ".....", "..X.."])
    t.apply(cell(t, "a1"))
    assert t.is_terminal() and t.winner == 0


def test_stone_that_joins_friends_and_cuts_a_region_captures_groups_it_does_not_touch():
    """White c4 joins the white groups above and below it and cuts the region round it in two:
    Black's a2-d2 and e3, which lived only through that region, die although the stone touches
    neither, and their cells give the joined group a region it shares with a1 and e2. Without
    those captures c4 would be illegal (the joined group would have no partner). Both ways of
    finding the dying groups (the scan of a small region, the event ranges of a large one) see it."""
    from tests.kernel_helpers import analyse_asli
    rows = ["..OO.", ".....", ".OOOX", "XXXXO", "O...."]
    s = asli_position(rows, to_move="white")
    geo = s.game.geometry
    for small_region in (0, 10_000):
        mask = np.zeros(25, bool)
        analyse_asli(s.board, 1, False, True, geo.on_board, geo.neighbours, geo.degree, mask, np.zeros(25, np.int8),
                     np.zeros(25, bool), small_region)
        assert mask[cell(s, "c4")] and mask[cell(s, "d4")]
    assert s.mask[cell(s, "c4")] == 1
    s.apply(cell(s, "c4"))
    assert picture(s) == ["..OO.", "..O..", ".OOO.", "....O", "O...."] and s.prison == [5, 0]


def test_captured_group_revives_the_joined_group_through_its_own_eye():
    """Black e2 joins the two black walls, which then have no region shared with another black
    group, and kills both white groups: the ring in the corner (its only partner region was the
    one e2 cuts) and e1. The joined group lives only because the ring's eye, where a7 and b6 live,
    merges with its cells into the joined group's region; no white stone touches a black one. The
    mask sees it when it looks at the dying groups directly and through their lists of contacts,
    and so does simulating the stone."""
    from territory_envs.games.asli.rules import single_turn_legal
    from tests.kernel_helpers import analyse_asli
    rows = ["X..O.X.", ".X.O.X.", "...O.X.", "OOOO.X.", ".....X.", "XXXX.X.", "....O.."]
    s = asli_position(rows, to_move="black")
    geo = s.game.geometry
    e2 = cell(s, "e2")
    assert single_turn_legal(s.board, 0, e2, False, geo.on_board, geo.neighbours, geo.degree)
    for direct_work in (0, 10_000):
        mask = np.zeros(49, bool)
        analyse_asli(s.board, 0, False, True, geo.on_board, geo.neighbours, geo.degree, mask, np.zeros(49, np.int8),
                     np.zeros(49, bool), 10_000, direct_work)
        assert mask[e2]
    assert s.mask[e2] == 1
    s.apply(e2)
    assert picture(s) == ["X....X.", ".X...X.", ".....X.", ".....X.", ".....X.", "XXXXXX.", "......."]
    assert s.prison == [0, 8]


def test_territories_and_danger_planes():
    s = asli_position(["XXXXX", "XO.OX", "XXXXX", ".....", "..X.."])
    obs = s.observation(0).reshape(25, -1)  # Black's view
    c4 = cell(s, "c4")
    assert obs[c4, 4] == 0 and obs[c4, 5] == 0  # touches both colours
    assert obs[cell(s, "a1"), 4] == 1  # rows 1-2 touch only black stones
    assert obs[cell(s, "b4"), 7] == 1  # White's b4 lives through c4 only: in danger
    assert obs[cell(s, "c1"), 6] == 1 and obs[cell(s, "a5"), 6] == 1  # Black's groups: one shared region


# --- the end: draws by repetition, no legal action -------------------------------------------------------
DRAW_GAME = ["c1", "b4", "b1", "d3", "c3", "b3", "d4", "a3", "d2", "c2", "d3", "d1",
             "remove_prisoner", "remove_prisoner", "c1"]


def test_placement_recreating_an_earlier_position_is_a_draw():
    before = replay("asli", DRAW_GAME[:11], board_size=4)
    s = replay("asli", DRAW_GAME, board_size=4)
    assert s.is_terminal() and s.winner == -1 and s.returns().tolist() == [0.0, 0.0]
    assert picture(s) == picture(before) and s.to_move == before.to_move  # the same position


def test_removal_turns_never_draw():
    s = replay("asli", DRAW_GAME[:14], board_size=4)
    # the two removals left the board as it was after d1, with Black to move again: no draw
    assert not s.is_terminal() and picture(s) == picture(replay("asli", DRAW_GAME[:12], board_size=4))


def test_history_survives_clone_and_serialisation():
    s = replay("asli", DRAW_GAME[:14], board_size=4)
    import territory_envs
    for copy in (s.clone(), territory_envs.state_from_json(s.to_json())):
        copy.apply(copy.game.notation_to_action("c1"))
        assert copy.is_terminal() and copy.winner == -1


def test_illegal_removal_raises_and_changes_nothing():
    s = make_game("asli", board_size=4).new_state()
    before = s.to_dict()
    with pytest.raises(IllegalActionError):
        s.apply(remove(s))
    assert s.to_dict() == before


def test_infos_carry_the_prison():
    from territory_envs import asli_v0
    env = asli_v0.env(board_size=4, komi=2)
    env.reset()
    assert env.infos["player_0"]["prison_black"] == 2 and env.infos["player_0"]["prison_white"] == 0
    for move in ("c3", "a1"):
        env.step(cell(env.unwrapped.game_state, move))
    env.step(remove(env.unwrapped.game_state))
    assert env.infos["player_1"]["prison_black"] == 1 and env.infos["player_1"]["prison_white"] == 0
    # a capture moves the prison too, and the infos follow at that step
    env = asli_v0.env(board_size=4)
    env.reset(options={"state": asli_position(BEFORE_MINIMAL, to_move="white", prison=[0, 1])})
    assert env.infos["player_0"]["prison_black"] == 0 and env.infos["player_0"]["prison_white"] == 1
    env.step(cell(env.unwrapped.game_state, "a2"))  # White captures a4-a3
    for agent in ("player_0", "player_1"):
        assert (env.infos[agent]["prison_black"], env.infos[agent]["prison_white"]) == (2, 1)


def test_prison_removal_is_a_whole_turn():
    s = asli_position(BEFORE_MINIMAL, to_move="black", prison=[0, 1])
    board = s.board.copy()
    s.apply(remove(s))
    assert s.to_move == 1 and (s.board == board).all() and s.prison == [0, 0]
    assert s.mask[remove(s)] == 0  # no black prisoner for White to take


def test_same_agent_places_twice_when_player_1_holds_black():
    s = make_game("asli", board_size=5).new_state(swap_sides=True)
    assert s.current_player == 1
    s.apply(0)
    assert s.current_player == 1
    s.apply(2)
    assert s.current_player == 0 and s.to_move == 1


def test_lone_stone_among_enemies_is_illegal_mid_game():
    s = asli_position(["XXXXX", "XO.OX", "XXXXX", ".....", "..X.."], to_move="white", reachable=False)
    assert s.mask[cell(s, "a1")] == 0 and s.mask[cell(s, "c4")] == 0


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_observation_planes_mean_what_the_table_says(seed):
    """Each plane recomputed from the reference engine's reading of the same position."""
    from tests.reference.asli_reference import ReferenceAsli
    game = make_game("asli", board_size=5, komi=2)
    rng = np.random.default_rng(seed)
    state, ref = game.new_state(), ReferenceAsli(5, 2)
    for _ in range(8 + 3 * seed):
        if state.is_terminal():
            break
        action = int(rng.choice(state.legal_actions()))
        state.apply(action)
        ref.play(action)
    owner = {}
    for points, who in ref.territories():
        for r, c in points:
            owner[r * 5 + c] = who
    for player in (0, 1):
        side = state.side_of(player)
        obs = state.observation(player).reshape(25, -1)
        own, opp = state.board == side + 1, state.board == 2 - side
        assert (obs[:, 0] == own).all() and (obs[:, 1] == opp).all()
        assert (obs[:, 2] == (state.board == 0)).all() and (obs[:, 3] == 1).all()
        for i in range(25):
            assert obs[i, 4] == (owner.get(i) == side) and obs[i, 5] == (owner.get(i) == 1 - side)
        legal = set(ref.legal_moves()) if side == ref.to_move and not ref.over else set()
        assert set(np.flatnonzero(obs[:, 8]).tolist()) == {a for a in legal if a < 25}
        assert (obs[:, 9] == round(100 * ref.prison[1 - side] / 25)).all()
        assert (obs[:, 10] == round(100 * ref.prison[side] / 25)).all()
        assert (obs[:, 11] == ref.prev_turn_minimal).all()
        assert (obs[:, 12] == (ref.pending_first is not None)).all() and (obs[:, 13] == side).all()
        # danger: a stone whose group lives through exactly one region
        for i in np.flatnonzero(state.board):
            assert obs[i, 6] + obs[i, 7] == (_regions_giving_life(ref, divmod(int(i), 5)) == 1)


def _regions_giving_life(ref, point):
    """Direct count: empty regions next to point's group that touch another group of its colour."""
    colour = ref.board[point[0]][point[1]]
    group = ref._group_at(ref.board, point)
    count = 0
    for region, _ in ref.territories():
        if not any(ref.board[r][c] is None and any(q in group for q in ref._neighbours((r, c))) for r, c in region):
            continue
        others = {q for r, c in region for q in ref._neighbours((r, c))
                  if ref.board[q[0]][q[1]] == colour and q not in group}
        count += bool(others)
    return count

