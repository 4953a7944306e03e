"""A fifth game (``tests/fifth_game``: Threes, written only for this) joins through one
``register_game`` call and runs through every layer without an edit outside its folder: the AEC and
parallel envs under PettingZoo's tests, the batch and its greedy opponent, the single-agent env and
its vector form through Gymnasium, the RLlib adapter's env, records and pictures, MCTS, the arena
and the trainer's search. Its engine is checked against a reference written from its rule text."""
import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test, seed_test

import territory_envs
from territory_envs import make, make_game, read_record, register_game, unregister_game, write_record
from territory_envs.vector import make_vec

from .fifth_game import GAME
from .fifth_game import reference

NAME, OPTIONS = "threes", {"board_size": 4}


@pytest.fixture(autouse=True, scope="module")
def registered():
    """Threes is known while these tests run; the other tests see the package's four games."""
    register_game(GAME)
    yield
    unregister_game(NAME)


def as_rows(state):
    n = state.game.geometry.size
    return [[int(v) for v in state.board[r * n:(r + 1) * n]] for r in range(n)]


@pytest.mark.parametrize("options", [{}, {"board_size": 3}, {"board_size": 6, "line_length": 4}])
def test_the_engine_agrees_with_the_reference_at_every_step(options):
    game = make_game(NAME, **options)
    n, length = game.geometry.size, game.options["line_length"]
    rng = np.random.default_rng(0)
    for _ in range(40):
        state, rows, colour = game.new_state(), [[0] * n for _ in range(n)], 1
        while not state.terminal:
            assert sorted(state.legal_actions().tolist()) == sorted(r * n + c for r, c in reference.legal(rows))
            action = int(rng.choice(state.legal_actions()))
            state.apply(action)
            rows, (over, winner) = reference.play(rows, colour, divmod(action, n), length)
            assert state.terminal == over and as_rows(state) == rows
            colour = 3 - colour
        assert state.winner == winner - 1


def test_a_bad_option_and_a_taken_name_are_refused():
    with pytest.raises(ValueError, match="board_size"):
        make_game(NAME, board_size=9)
    register_game(GAME)  # the same declaration again: nothing changes
    with pytest.raises(ValueError, match="registered already"):
        register_game(territory_envs.GameDeclaration(type("Other", (GAME.game_class,), {}), "Other", GAME.evaluate))


def test_pettingzoo_conformance():
    api_test(make(NAME, **OPTIONS), num_cycles=200)
    seed_test(lambda: make(NAME, **OPTIONS), num_cycles=200)
    parallel_api_test(GAME.env_functions()[2](**OPTIONS), num_cycles=200)
    import pettingzoo  # its registry knows the game too
    assert pettingzoo.make("aec", GAME.pettingzoo_id, **OPTIONS).metadata["name"] == f"{NAME}_v0"
    parallel_api_test(pettingzoo.make("parallel", GAME.pettingzoo_id, **OPTIONS), num_cycles=50)


def test_the_batch_and_its_greedy_opponent():
    vec = make_vec(NAME, 64, **OPTIONS)
    obs, info = vec.reset(seed=0)
    ended = 0
    for _ in range(100):
        obs, rewards, terminated, truncated, info = vec.step(vec.sample_actions())
        ended += int(terminated.sum())
        assert np.all(rewards.sum(axis=1) == 0)
    assert ended > 50
    state = vec.get_state(3)
    assert state.game.name == NAME and np.array_equal(state.legal_mask(), info["action_mask"][3])
    envs = gymnasium.make_vec(GAME.gym_id, num_envs=16, opponent="greedy", **OPTIONS)
    obs, info = envs.reset(seed=0)
    finished = 0
    for _ in range(30):
        actions = np.array([np.flatnonzero(m)[0] for m in obs["action_mask"]])
        obs, rewards, terminated, truncated, info = envs.step(actions)
        finished += int(terminated.sum())
    assert finished > 0
    envs.close()


def test_the_single_agent_env_and_the_rllib_adapter():
    check_env(gymnasium.make(GAME.gym_id, illegal_action="lose", **OPTIONS).unwrapped, skip_render_check=True)
    env = gymnasium.make(GAME.gym_id, opponent="random", **OPTIONS)
    obs, info = env.reset(seed=1)
    done = False
    while not done:
        obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        done = terminated or truncated
    from territory_envs.rllib import RLlibTurnEnv
    rl = RLlibTurnEnv({"game": NAME, **OPTIONS})
    obs, _ = rl.reset(seed=0)
    while True:
        (agent, o), = obs.items()
        obs, rewards, dones, truncs, _ = rl.step({agent: int(np.flatnonzero(o["action_mask"])[0])})
        if dones["__all__"] or truncs["__all__"]:
            assert sum(rewards.values()) == 0
            break


def test_records_and_pictures():
    state = make_game(NAME, **OPTIONS).new_state()
    for action in (0, 5, 1, 6, 2):
        state.apply(action)
    assert state.terminal and state.winner == 0
    again = read_record(write_record(state))
    assert again == state
    assert "X" in state.render_ansi() and state.render_rgb().ndim == 3
    with pytest.raises(ValueError, match="line 10: .*z9"):
        read_record(write_record(state).replace("b4", "z9"))


def test_mcts_the_arena_and_the_trainers_search():
    from agents import make_agent
    from agents.arena import run_arena
    state = make_game(NAME, **OPTIONS).new_state()
    state.apply(0)
    state.apply(5)
    state.apply(1)  # black threatens a2-b2-c2... and white must answer
    action = make_agent("mcts:64", seed=0).act(state)
    assert state.is_legal(action)
    results = run_arena([NAME], ["random", "greedy", "mcts:16"], games_per_pair=2, seed=0, workers=1,
                        options={NAME: OPTIONS})
    assert len(results["games"]) == 6
    results = run_arena([NAME], ["random", "greedy"], games_per_pair=2, seed=0, workers=2, options={NAME: OPTIONS})
    assert len(results["games"]) == 2
    from agents.az.network import NetConfig
    from agents.az.selfplay import SelfPlayConfig, SelfPlayWorker
    worker = SelfPlayWorker(make_game(NAME, **OPTIONS), NetConfig(channels=8, blocks=1),
                            SelfPlayConfig(games_in_flight=2, full_simulations=8, fast_simulations=4))
    samples, stats = worker.play_games([0, 1])
    assert stats["games"] == 2 and len(samples) > 0 and samples.planes.shape[1:] == make_game(NAME, **OPTIONS).obs_shape
