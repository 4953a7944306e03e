"""Differential test: the fast Lin engine against the slow reference written from the rule text
(tests/reference/lin_reference.py, written without seeing the engine). Seeded random games;
at every step the legal sets, living domains, the board after the move, and at the end the scores,
winner and rewards must agree."""
import numpy as np
import pytest

from territory_envs import make_game
from tests.reference.lin_reference import ReferenceLin

# (board_size, line_length, komi, games)
CONFIGS = [(5, 4, 0, 70), (5, 4, 1, 10), (7, 5, 0, 50), (7, 5, 2, 10), (9, 6, 0, 40), (13, 6, 0, 20)]


def play_and_compare(size, line, komi, seed):
    game = make_game("lin", board_size=size, line_length=line, komi=komi)
    state = game.new_state()
    ref = ReferenceLin(size, line, komi)
    rng = np.random.default_rng(seed)
    while True:
        legal = state.legal_actions().tolist()
        assert legal == ref.legal_moves(), f"legal sets differ at move {state.move_number}"
        for colour in (1, 2):
            fast = {divmod(int(i), size) for i in np.flatnonzero(state.alive[colour - 1])}
            assert fast == ref.living_domain_points(colour), f"living domains differ at move {state.move_number}"
        assert state.is_terminal() == ref.over
        if ref.over:
            break
        action = int(rng.choice(legal))
        before = state.board.copy()
        state.apply(action)
        removed = ref.play(action)
        assert state.board.tolist() == ref.cells(), f"boards differ after move {state.move_number}"
        fast_removed = {divmod(int(i), size) for i in np.flatnonzero((before != 0) & (state.board == 0))}
        assert fast_removed == removed
    assert state.scores() == ref.scores()
    winner = ref.winner()
    assert state.winner == (-1 if winner is None else winner - 1)
    expected = [0.0, 0.0] if winner is None else ([1.0, -1.0] if winner == 1 else [-1.0, 1.0])
    assert state.returns().tolist() == expected
    return state.winner


@pytest.mark.parametrize("size,line,komi,games", CONFIGS)
def test_random_games_match_reference(size, line, komi, games):
    winners = {play_and_compare(size, line, komi, seed=1000 * size + 10 * komi + g) for g in range(games)}
    assert {0, 1} <= winners  # the games compared ends won by either side
