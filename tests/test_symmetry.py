"""Board symmetries: each is a permutation that keeps the board and its adjacency, and the rules
of every game commute with its own: the game played with transformed moves reaches the transformed
position, with the transformed legal mask and observation planes."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from territory_envs import make_game
from territory_envs.core.geometry import hexhex, square
from territory_envs.core.symmetry import board_symmetries, geometry_symmetries, transform_actions, \
    transform_planes


@pytest.mark.parametrize("geometry", [square(3), square(4), square(9), hexhex(2), hexhex(3), hexhex(5)],
                         ids=lambda g: g.describe())
def test_symmetries_keep_the_board_and_its_adjacency(geometry):
    perms = geometry_symmetries(geometry)
    assert len(perms) == (12 if geometry.kind == "hex" else 8)
    assert len({p.tobytes() for p in perms}) == len(perms)  # all different
    assert (perms[0] == np.arange(geometry.num_cells)).all()
    on = geometry.on_board
    for perm in perms:
        assert sorted(perm) == list(range(geometry.num_cells))
        assert (on[perm] == on).all()
        for i in np.flatnonzero(on):
            mine = {int(perm[j]) for j in geometry.neighbours[i, :geometry.degree[i]]}
            theirs = set(geometry.neighbours[perm[i], :geometry.degree[perm[i]]].tolist())
            assert mine == theirs


def test_linage_keeps_rows_apart_from_columns():
    game = make_game("linage", board_size=5)
    perms = board_symmetries(game)
    assert len(perms) == 4
    r, c = np.divmod(np.arange(25), 5)
    for perm in perms:
        pr, pc = np.divmod(perm, 5)
        # cells of one row stay in one row
        assert all(len(set(pr[r == k])) == 1 for k in range(5))
        assert all(len(set(pc[c == k])) == 1 for k in range(5))


def test_transforms_move_cells_and_keep_special_actions():
    perm = geometry_symmetries(square(3))[1]
    planes = np.arange(9 * 2).reshape(3, 3, 2)
    moved = transform_planes(planes, perm)
    for i in range(9):
        assert (moved.reshape(9, 2)[perm[i]] == planes.reshape(9, 2)[i]).all()
    values = np.arange(11)
    out = transform_actions(values, perm)
    assert (out[perm] == values[:9]).all() and (out[9:] == values[9:]).all()


SMALL = {"lin": {"board_size": 5, "line_length": 3}, "linage": {"board_size": 5},
         "lifeline": {"board_size": 3}, "asli": {"board_size": 5}}


@pytest.mark.parametrize("name", sorted(SMALL))
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), moves=st.integers(0, 40), which=st.integers(0, 11))
def test_rules_commute_with_the_symmetries(name, seed, moves, which):
    game = make_game(name, **SMALL[name])
    perms = board_symmetries(game)
    perm = perms[which % len(perms)]
    n = perm.shape[0]
    state, image = game.new_state(), game.new_state()
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        if state.terminal:
            break
        assert (image.legal_mask() == transform_actions(state.legal_mask(), perm)).all()
        for player in (0, 1):
            assert (image.observation(player) == transform_planes(state.observation(player), perm)).all()
        action = int(rng.choice(state.legal_actions()))
        state.apply(action)
        image.apply(int(perm[action]) if action < n else action)
    assert image.terminal == state.terminal and image.winner == state.winner
    assert (image.board[perm] == state.board).all()
