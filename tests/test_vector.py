"""The batched envs against the AEC envs: 64 games driven by the same seeded random actions give
exactly the same observations, masks, rewards and ends; single games move in and out of the batch
through the state API."""
import importlib

import numpy as np
import pytest

from territory_envs import IllegalActionError, make_game
from territory_envs.vector import make_vec

CASES = [("lin", {"board_size": 7, "line_length": 5, "komi": 1}), ("lin", {"board_size": 9}),
         ("linage", {"board_size": 5}), ("linage", {"board_size": 9, "komi": 2, "max_moves": 40}),
         ("lin", {"board_size": 5, "line_length": 4, "max_moves": 12}),
         ("lifeline", {"board_size": 4}), ("lifeline", {"board_size": 5, "pie": "weak"}),
         ("lifeline", {"board_size": 4, "pie": "komi", "komi": 2, "max_moves": 30}),
         ("asli", {"board_size": 4}), ("asli", {"board_size": 5, "komi": 3}),
         ("asli", {"board_size": 6, "max_moves": 25})]


@pytest.mark.parametrize("game,options", CASES)
def test_batch_matches_separate_aec_envs(game, options):
    batch = 64
    vec = make_vec(game, batch, **options)
    module = importlib.import_module(f"territory_envs.{game}_v0")
    envs = [module.env(**options) for _ in range(batch)]
    for env in envs:
        env.reset()
    obs, info = vec.reset(seed=0)
    rng = np.random.default_rng(7)
    ends = 0
    for step in range(150):
        for i, env in enumerate(envs):
            agent = env.agent_selection
            assert info["agent"][i] == int(agent[-1])
            seen = env.observe(agent)
            assert (seen["observation"] == obs[i]).all(), (step, i)
            assert (seen["action_mask"] == info["action_mask"][i]).all(), (step, i)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]])
        obs, rewards, terminated, truncated, info = vec.step(actions)
        for i, env in enumerate(envs):
            env.step(int(actions[i]))
            assert [env.rewards["player_0"], env.rewards["player_1"]] == rewards[i].tolist()
            assert all(env.terminations.values()) == terminated[i]
            assert all(env.truncations.values()) == truncated[i]
            # Gymnasium 1.x's names: final_obs, final_info, and their masks of the games that ended
            assert info["_final_obs"][i] == info["_final_info"][i] == info["final_info"]["_scores"][i] \
                == (terminated[i] or truncated[i])
            if terminated[i] or truncated[i]:
                ends += 1
                state = env.unwrapped.game_state
                assert (state.observation(state.current_player) == info["final_obs"][i]).all()
                scores = state.scores()
                assert (list(scores) if scores is not None else [0.0, 0.0]) == info["final_info"]["scores"][i].tolist()
                env.reset()
    assert ends > 0


def test_single_games_round_trip_through_the_state_api():
    vec = make_vec("linage", 8, board_size=6)
    vec.reset()
    rng = np.random.default_rng(3)
    for _ in range(9):
        vec.step(np.array([rng.choice(np.flatnonzero(m[:-1])) for m in vec.action_masks]))
    state = vec.get_state(2)
    assert state.move_number == 9 and not state.is_terminal()
    # a search agent branches from it; the game goes back into another slot and plays on the same
    child = state.clone()
    vec.set_state(5, child)
    assert (vec.action_masks[5] == state.mask).all() and (vec.observations[5] == vec.observations[2]).all()
    assert vec.get_state(5) == vec.get_state(2)
    action = int(np.flatnonzero(state.mask)[0])
    actions = np.array([int(np.flatnonzero(m)[0]) for m in vec.action_masks])
    actions[2] = actions[5] = action
    vec.step(actions)
    state.apply(action)
    assert vec.get_state(2) == vec.get_state(5)
    assert (vec.get_state(2).board == state.board).all() and vec.get_state(2).to_move == state.to_move


def test_lin_state_goes_in_and_out():
    game = make_game("lin", board_size=5, line_length=4)
    state = game.new_state(swap_sides=True).apply(12).apply(0)
    vec = make_vec("lin", 3, board_size=5, line_length=4)
    vec.reset()
    vec.set_state(1, state)
    assert vec.get_state(1).to_dict() == {**state.to_dict(), "history": []}
    assert vec.agents_to_move[1] == state.current_player


def test_bad_input():
    vec = make_vec("lin", 4, board_size=5, line_length=4)
    with pytest.raises(RuntimeError):
        vec.step(np.zeros(4, int))
    vec.reset()
    before = vec.action_masks.copy()
    vec.step(np.array([0, 1, 2, 3]))
    masks = vec.action_masks.copy()
    with pytest.raises(IllegalActionError, match=r"games \[0\]"):
        vec.step(np.array([0, 5, 6, 7]))  # game 0 plays the occupied point again
    assert (vec.action_masks == masks).all() and not (masks == before).all()
    with pytest.raises(IllegalActionError):
        vec.step(np.array([5, 6, 7]))
    for out_of_range in (-1, 25, 1 << 40):
        with pytest.raises(IllegalActionError, match=r"games \[2\]"):
            vec.step(np.array([5, 6, out_of_range, 8]))
    assert (vec.action_masks == masks).all()
    with pytest.raises(ValueError, match="num_envs"):
        make_vec("lin", 0)
    with pytest.raises(ValueError, match="unknown game .go."):
        make_vec("go", 4)
    with pytest.raises(ValueError, match="board_size"):
        make_vec("lin", 4, board_size=4)


def test_threads_and_memory():
    # the same games whatever the number of threads; the arrays stay within their bound
    runs = []
    import numba
    for threads in (1, min(2, numba.config.NUMBA_NUM_THREADS)):
        vec = make_vec("lin", 512, num_threads=threads, board_size=19)
        vec.reset(seed=3)
        assert vec.memory_bytes() < 25 * 2**20
        for _ in range(30):
            out = vec.step(vec.sample_actions())
        runs.append([a.copy() for a in out[:4]] + [vec.action_masks.copy()])
    for one, two in zip(*runs):
        np.testing.assert_array_equal(one, two)


def test_lifeline_games_round_trip_with_their_scalars():
    vec = make_vec("lifeline", 6, board_size=4, pie="komi", komi=2)
    vec.reset()
    rng = np.random.default_rng(5)
    for _ in range(7):
        vec.step(np.array([rng.choice(np.flatnonzero(m)) for m in vec.action_masks]))
    state = vec.get_state(1)
    assert state.removal_on and state.move_number == 7 and state.komi_left <= 2
    vec.set_state(4, state.clone())
    assert vec.get_state(4) == state
    assert (vec.observations[4] == vec.observations[1]).all() and (vec.action_masks[4] == state.mask).all()


def test_asli_repetition_tables_grow_and_travel():
    state = make_game("asli", board_size=4).new_state().apply(0).apply(2)
    for h in range(2, 300):  # a long history: the single state's table grows
        state._remember(h * 7919)
    assert len(state.seen_positions()) == 300 and state.seen.shape[0] >= 600  # 298 + start + after the pair
    vec = make_vec("asli", 3, board_size=4)
    vec.reset()
    vec.set_state(1, state)  # ... and the batch's tables grow to take it
    assert vec._batch.seen.shape[1] >= 600
    assert vec.get_state(1).to_dict() == {**state.to_dict(), "history": []}
    rng = np.random.default_rng(2)
    for _ in range(20):
        vec.step(np.array([rng.choice(np.flatnonzero(m)) for m in vec.action_masks]))


@pytest.mark.parametrize("game, options", [("asli", {"board_size": 5}), ("lifeline", {"board_size": 3})])
def test_batches_spread_over_game_phases_step_like_the_state_api(game, options):
    """Spread over game phases (as the peers benchmark times them), the games sit at random points
    of random games, not in step as after reset; the batch then still steps like the state API."""
    vec = make_vec(game, 64, **options)
    vec.reset(0)
    vec.spread_over_game_phases(seed=1, games=8)
    assert len(set(vec._batch.move_number.tolist())) >= 8
    rng = np.random.default_rng(2)
    for _ in range(5):
        before = [vec.get_state(i) for i in range(8)]
        actions = np.array([int(rng.choice(np.flatnonzero(m))) for m in vec.action_masks])
        vec.step(actions)
        for i, state in enumerate(before):
            state.apply(int(actions[i]))
            if not state.terminal:
                assert np.array_equal(vec.get_state(i).board, state.board)
                assert np.array_equal(vec.action_masks[i], state.legal_mask())


@pytest.mark.parametrize("game,options", [("lin", {"board_size": 7}), ("lifeline", {"board_size": 4})])
def test_sample_actions_are_legal_seeded_and_independent_of_threads(game, options):
    def play(seed, threads, steps=60):
        vec = make_vec(game, 32, num_threads=threads, **options)
        _, info = vec.reset(seed=seed)
        drawn = []
        for _ in range(steps):
            actions = vec.sample_actions()
            assert actions.dtype == np.int64 and actions.shape == (32,)
            assert (info["action_mask"][np.arange(32), actions] == 1).all()
            drawn.append(actions)
            _, _, _, _, info = vec.step(actions)
        return np.array(drawn)
    first = play(5, 1)
    assert (play(5, 2) == first).all()  # per-game streams: the threads do not matter
    assert (play(6, 1) != first).any()
    assert len(set(first[0].tolist())) > 5  # games draw from different streams


def test_sample_actions_are_uniform_over_the_legal_set():
    vec = make_vec("lin", 4096, board_size=7)
    vec.reset(seed=1)
    mask = vec._batch.mask  # the batch's own mask, set by hand: the sampler over a chosen legal set
    mask[:] = 0
    mask[:, [0, 7, 24]] = 1  # three legal actions in every game
    counts = np.zeros(50, dtype=np.int64)
    for _ in range(25):
        np.add.at(counts, vec.sample_actions(), 1)
    draws = 25 * 4096
    assert counts.sum() == draws and counts[[0, 7, 24]].sum() == draws
    # each expected 34133 times; 5 standard deviations are about 750
    assert np.abs(counts[[0, 7, 24]] - draws / 3).max() < 750
    mask[0, :] = 0
    assert vec.sample_actions()[0] == -1


def test_sample_actions_before_reset_refused():
    with pytest.raises(RuntimeError):
        make_vec("lin", 2, board_size=7).sample_actions()
