"""Lin env: PettingZoo conformance, the SPEC.md contract, bad input, and OpenSpiel-style random
simulation checks of the state API."""
import json
import re

import numpy as np
import pytest
from pettingzoo.test import api_test, max_cycles_test, render_test, seed_test

import territory_envs
from territory_envs import IllegalActionError, lin_v0, make, make_game, read_record, write_record
from territory_envs.games.lin import PLANES

OPTION_SETS = [
    {},
    {"board_size": 5, "line_length": 4},
    {"board_size": 7, "line_length": 3, "komi": 2},
    {"board_size": 13, "line_length": 6, "komi": -1, "max_moves": 40},
]


@pytest.mark.parametrize("options", OPTION_SETS)
def test_pettingzoo_api(options):
    api_test(lin_v0.env(**options), num_cycles=300)


@pytest.mark.parametrize("options", OPTION_SETS[:2])
def test_pettingzoo_seed(options):
    seed_test(lambda: lin_v0.env(**options), num_cycles=300)


@pytest.mark.parametrize("options", OPTION_SETS[:2])
def test_pettingzoo_render(options):
    render_test(lambda render_mode=None: lin_v0.env(render_mode=render_mode, **options))


def test_max_moves_truncates():
    env = lin_v0.env(board_size=9, max_moves=10)
    env.reset(seed=1)
    steps = 0
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            assert trunc and not term and reward == 0 and info["winner"] is None
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    assert steps == 10


def test_make_and_registry():
    env = make("lin", board_size=7, line_length=5)
    assert env.metadata["name"] == "lin_v0"
    assert env.unwrapped.game.options["board_size"] == 7
    assert "lin" in territory_envs.registry()
    with pytest.raises(ValueError, match="unknown game"):
        make("go")


@pytest.mark.parametrize("options,name", [
    ({"board_size": 8}, "board_size"), ({"board_size": 3}, "board_size"), ({"board_size": 27}, "board_size"),
    ({"board_size": 9.0}, "board_size"), ({"board_size": "9"}, "board_size"),
    ({"line_length": 1}, "line_length"), ({"board_size": 7, "line_length": 8}, "line_length"),
    ({"komi": 0.5}, "komi"), ({"komi": "2"}, "komi"), ({"komi": True}, "komi"),
    ({"max_moves": 0}, "max_moves"), ({"render_mode": "window"}, "render_mode"),
    ({"illegal_action": "ignore"}, "illegal_action"), ({"colour": 1}, "colour"),
])
def test_bad_options_raise_naming_the_option(options, name):
    with pytest.raises(ValueError, match=name):
        lin_v0.env(**options)


def test_agents_sides_and_swap():
    env = lin_v0.env(board_size=5, line_length=4)
    env.reset()
    assert env.possible_agents == ["player_0", "player_1"]
    assert env.agent_selection == "player_0"
    assert env.infos["player_0"]["side"] == "black" and env.infos["player_1"]["side"] == "white"
    env.reset(options={"swap_sides": True})
    assert env.agent_selection == "player_1"
    assert env.infos["player_1"]["side"] == "black"
    # observations are drawn from the observer's side: player_1 (Black) sees its stone as own
    env.step(12)
    assert env.observe("player_1")["observation"][2, 2, 0] == 1
    assert env.observe("player_0")["observation"][2, 2, 1] == 1
    assert env.observe("player_1")["observation"][0, 0, 8] == 0  # side plane: Black
    assert env.observe("player_1")["action_mask"].sum() == 0  # not on move


def test_illegal_action_raises_and_changes_nothing():
    env = lin_v0.env(board_size=5, line_length=4)
    env.reset()
    env.step(12)
    before = env.unwrapped.state.to_dict()
    for bad in (12, -1, 25, 3.5, "a1", None):
        with pytest.raises(IllegalActionError):
            env.step(bad)
        assert env.unwrapped.state.to_dict() == before
        assert env.agent_selection == "player_1"


def test_illegal_action_lose_option():
    env = lin_v0.env(board_size=5, line_length=4, illegal_action="lose")
    env.reset()
    env.step(12)
    env.step(12)
    assert env.terminations == {"player_0": True, "player_1": True}
    assert env.rewards == {"player_0": 1.0, "player_1": -1.0}
    assert env.infos["player_1"]["illegal_action_by"] == "player_1"


def test_step_before_reset_raises():
    env = lin_v0.env()
    with pytest.raises(RuntimeError):
        env.step(0)
    with pytest.raises(RuntimeError):
        env.observe("player_0")


def test_docstring_plane_table_matches_code():
    rows = re.findall(r"^(\d+)\s+([a-z_]+)\s+\S", lin_v0.__doc__, flags=re.M)
    assert [(int(i), name) for i, name in rows] == [(i, p.name) for i, p in enumerate(PLANES)]
    env = lin_v0.env()
    assert env.observation_space("player_0")["observation"].shape == (9, 9, len(PLANES))


def test_observation_planes_mean_what_the_table_says():
    """Every plane recomputed by hand from the board and the living domains."""
    game = make_game("lin", board_size=7, line_length=4, komi=3)
    state = game.new_state()
    rng = np.random.default_rng(5)
    for _ in range(25):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    for player in (0, 1):
        side = state.side_of(player)
        obs = state.observation(player).reshape(49, -1)
        board = state.board
        own, opp = side + 1, 2 - side
        alive_own, alive_opp = state.alive[side], state.alive[1 - side]
        assert (obs[:, 0] == (board == own)).all() and (obs[:, 1] == (board == opp)).all()
        assert (obs[:, 2] == (board == 0)).all() and (obs[:, 3] == 1).all()
        assert (obs[:, 4] == alive_own).all() and (obs[:, 5] == alive_opp).all()
        assert (obs[:, 6] == (alive_own & alive_opp)).all()
        legal = (board == 0) & alive_own if side == state.to_move else np.zeros(49, bool)
        assert (obs[:, 7] == legal).all()
        assert (obs[:, 8] == side).all()
        assert (obs[:, 9] == round(100 * 3 * (1 if side else -1) / 49)).all()


def check_state_invariants(state, game):
    """OpenSpiel-style checks on one state."""
    clone = state.clone()
    assert clone == state and clone is not state
    assert territory_envs.state_from_dict(state.to_dict()) == state
    assert territory_envs.state_from_json(state.to_json()) == state
    back = territory_envs.state_from_json(json.dumps(json.loads(state.to_json())))
    assert (back.mask == state.mask).all() and (back.alive == state.alive).all()
    assert np.flatnonzero(state.legal_mask()).tolist() == state.legal_actions().tolist()
    assert state.returns().sum() == 0
    if state.is_terminal():
        assert state.legal_mask().sum() == 0
    else:
        assert len(state.legal_actions()) > 0


@pytest.mark.parametrize("size,line", [(5, 4), (9, 6)])
def test_random_simulation_checks(size, line):
    game = make_game("lin", board_size=size, line_length=line, komi=2)
    for seed in range(4):
        rng = np.random.default_rng(seed)
        state = game.new_state(swap_sides=bool(seed % 2))
        check_state_invariants(state, game)
        while not state.is_terminal():
            snapshot = state.clone()
            state.apply(int(rng.choice(state.legal_actions())))
            assert snapshot != state  # apply does not touch clones
            check_state_invariants(state, game)
        replayed = read_record(write_record(state))
        assert replayed == state
        r = state.returns()
        assert set(r.tolist()) <= {-1.0, 0.0, 1.0}


def test_env_rewards_follow_state_returns_and_swap():
    for swap in (False, True):
        env = lin_v0.env(board_size=5, line_length=4)
        env.reset(seed=3, options={"swap_sides": swap})
        rewards = {"player_0": 0.0, "player_1": 0.0}
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            rewards[agent] += reward
            if term or trunc:
                env.step(None)
                continue
            env.step(env.action_space(agent).sample(obs["action_mask"]))
        state = env.unwrapped.state
        assert [rewards["player_0"], rewards["player_1"]] == state.returns().tolist()
        winner_side = state.winner
        assert winner_side >= 0
        winner = f"player_{winner_side ^ int(swap)}"
        assert rewards[winner] == 1.0


def test_reset_from_given_state():
    game = make_game("lin", board_size=5, line_length=4)
    state = game.new_state().apply(12).apply(0)
    env = lin_v0.env(board_size=5, line_length=4)
    env.reset(options={"state": state})
    assert env.unwrapped.state == state and env.unwrapped.state is not state
    assert env.agent_selection == "player_0"
    with pytest.raises(ValueError):
        lin_v0.env(board_size=7, line_length=4).reset(options={"state": state})
