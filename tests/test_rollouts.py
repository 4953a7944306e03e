"""The compiled random playouts behind MCTS (``GameState.rollout``): every action they play is
legal by the state API, they end where the rules end with the same winner, leave the state
unchanged, follow their seed, and pick uniformly among the legal actions (with ``uniform=True`` in
every game; by default Linage passes only when it must and Lifeline fights first)."""
import numpy as np
import pytest

from territory_envs import make_game

from .test_env_contract import OPTION_SETS


def states_along_random_games(game, rng, games=4, every=7):
    """The start and every ``every``-th state of a few seeded random games."""
    for _ in range(games):
        state = game.new_state(swap_sides=bool(rng.integers(2)))
        yield state.clone()
        while not state.terminal and state.move_number < game.max_moves:
            state.apply(int(rng.choice(state.legal_actions())))
            if state.move_number % every == 0 or state.terminal:
                yield state.clone()


def replay(state, trace, moves):
    """Apply the playout's actions through the state API (raising on an illegal one), checking
    the player the trace names for each."""
    copy = state.clone()
    for action, player in trace[:, :moves].T:
        assert player == copy.current_player
        copy.apply(int(action))
    return copy


@pytest.mark.parametrize("uniform", [False, True])
@pytest.mark.parametrize("name", sorted(OPTION_SETS))
def test_playouts_replay_legally_to_the_same_end(name, uniform):
    rng = np.random.default_rng(11 + uniform)
    for options in OPTION_SETS[name]:
        game = make_game(name, **options)
        trace = np.full((2, game.max_moves + 1), -1, dtype=np.int32)
        checked = 0
        for state in states_along_random_games(game, rng):
            before = state.to_json()
            winner, moves = state.rollout_with_length(int(rng.integers(1 << 30)), trace, uniform)
            assert state.to_json() == before  # the playout works on copies
            end = replay(state, trace, moves)
            assert moves == end.move_number - state.move_number
            if end.terminal:
                assert winner == (end.winner ^ end.flip if end.winner >= 0 else -1)
            else:  # stopped by the move bound: a draw, or a side with no legal action lost
                assert end.move_number == game.max_moves or (winner >= 0 and not end.legal_actions().size)
            checked += 1
        assert checked >= 8


@pytest.mark.parametrize("name", sorted(OPTION_SETS))
def test_playouts_follow_their_seed(name):
    game = make_game(name, **OPTION_SETS[name][1])
    state = game.new_state()
    a = np.zeros((2, game.max_moves), np.int32)
    b = np.zeros((2, game.max_moves), np.int32)
    results = {state.rollout_with_length(seed, a)[0] for seed in range(40)}
    a[:] = 0
    assert state.rollout_with_length(5, a) == state.rollout_with_length(5, b) and np.array_equal(a, b)
    assert results <= {-1, 0, 1} and len(results) >= 2  # different seeds, different games


def first_actions_are_uniform_over(state, expected_set, uniform):
    """Draw many playouts' first actions; they cover exactly ``expected_set``, uniformly."""
    legal = np.asarray(sorted(expected_set))
    game = state.game
    trace = np.zeros((2, game.max_moves), np.int32)
    draws = 300 * len(legal)
    counts = np.zeros(game.num_actions)
    for seed in range(draws):
        state.rollout_with_length(seed, trace, uniform)
        counts[trace[0, 0]] += 1
    assert set(np.flatnonzero(counts)) == set(legal)
    # chi-square against uniform, far from the 0.1% tail for these degrees of freedom
    expected = draws / len(legal)
    chi2 = ((counts[legal] - expected) ** 2 / expected).sum()
    assert chi2 < len(legal) + 6 * np.sqrt(2 * len(legal)) + 10


@pytest.mark.parametrize("name, options, moves", [
    ("lin", {"board_size": 5, "line_length": 4}, 3),
    ("linage", {"board_size": 5, "line_length": 3}, 3),
    ("lifeline", {"board_size": 3, "pie": "weak"}, 2),
    ("lifeline", {"board_size": 4}, 5),
    ("asli", {"board_size": 5}, 5),   # after the double first turns: the rejection sampler
    ("asli", {"board_size": 5, "komi": 2}, 5),
])
@pytest.mark.parametrize("uniform", [False, True])
def test_first_playout_action_follows_the_documented_policy(name, options, moves, uniform):
    game = make_game(name, **options)
    rng = np.random.default_rng(3)
    state = game.new_state()
    for _ in range(moves):
        state.apply(int(rng.choice(state.legal_actions())))
    legal = set(state.legal_actions().tolist())
    if not uniform and name == "linage":  # playouts pass only when no placement is legal
        legal -= {game.num_cells}
    if not uniform and name == "lifeline":  # a legal cell next to an enemy stone, when there is one
        enemy = 2 - state.to_move
        nb, deg = game.geometry.neighbours, game.geometry.degree
        near = {p for p in legal if p < game.num_cells and (state.board[nb[p, :deg[p]]] == enemy).any()}
        assert near and near != legal  # the position tells the policies apart
        legal = near
    first_actions_are_uniform_over(state, legal, uniform)


def test_asli_playout_of_a_side_without_stones_takes_a_prisoner_out():
    """White has no stone on the board: any stone would be a lone group, dead, so its only legal
    action is to take a black prisoner out; with none left it has no legal action and loses."""
    from .test_agents import asli_capture_position
    state = asli_capture_position()
    data = state.to_dict()
    data["prison"] = [2, 0]
    state = state.game.state_from_dict(data).apply(state.game.notation_to_action("d3"))
    assert not state.terminal and state.legal_actions().tolist() == [state.game.num_cells]
    trace = np.zeros((2, state.game.max_moves), np.int32)
    for seed in range(20):
        winner, moves = state.rollout_with_length(seed, trace)
        assert trace[0, 0] == state.game.num_cells and trace[1, 0] == 1
        replay(state, trace, moves)
