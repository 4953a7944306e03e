"""The docs/spec.md contract, checked the same way on every game: PettingZoo conformance (api_test,
seed_test, render_test) with several option sets, agents and sides, illegal actions, truncation,
bad options, the docstring plane table, and OpenSpiel-style random simulation checks of the state
API (clone, dict and JSON round trips, mask equals legal actions, returns sum to zero, records)."""
import importlib
import json
import re

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

import territory_envs
from territory_envs import IllegalActionError, IllegalActionWarning, make, make_game, read_record, write_record

# game -> option sets (the first is small and fast); bad options -> the option the error must name
OPTION_SETS = {
    "lin": [{}, {"board_size": 5, "line_length": 4}, {"board_size": 7, "line_length": 3, "komi": 2},
            {"board_size": 13, "line_length": 6, "komi": -1, "max_moves": 40}],
    "linage": [{}, {"board_size": 4, "line_length": 2}, {"board_size": 7, "line_length": 4, "komi": 0},
               {"board_size": 13, "komi": -3.5, "max_moves": 30}],
    "lifeline": [{}, {"board_size": 3}, {"board_size": 4, "pie": "weak"},
                 {"board_size": 6, "pie": "komi", "komi": 3, "max_moves": 50}],
    "asli": [{}, {"board_size": 4}, {"board_size": 5, "komi": 3}, {"board_size": 13, "komi": 1, "max_moves": 60}],
}
SMALL = {"lin": {"board_size": 5, "line_length": 4}, "linage": {"board_size": 5, "line_length": 3},
         "lifeline": {"board_size": 3}, "asli": {"board_size": 5}}
BAD_OPTIONS = {
    "lin": [({"board_size": 8}, "board_size"), ({"board_size": 3}, "board_size"), ({"board_size": 27}, "board_size"),
            ({"board_size": 9.0}, "board_size"), ({"board_size": "9"}, "board_size"),
            ({"line_length": 1}, "line_length"), ({"board_size": 7, "line_length": 8}, "line_length"),
            ({"komi": 0.5}, "komi"), ({"komi": "2"}, "komi"), ({"komi": True}, "komi")],
    "linage": [({"board_size": 2}, "board_size"), ({"board_size": 26}, "board_size"),
               ({"line_length": 1}, "line_length"), ({"line_length": 6}, "line_length"),
               ({"board_size": 3, "line_length": 4}, "line_length"), ({"komi": "0.5"}, "komi"),
               ({"komi": float("nan")}, "komi"), ({"komi": None}, "komi")],
    "lifeline": [({"board_size": 2}, "board_size"), ({"board_size": 16}, "board_size"),
                 ({"pie": "medium"}, "pie"), ({"pie": None}, "pie"), ({"komi": -1}, "komi"),
                 ({"pie": "komi", "komi": 1.5}, "komi"), ({"line_length": 3}, "line_length")],
    "asli": [({"board_size": 3}, "board_size"), ({"board_size": 26}, "board_size"), ({"komi": -1}, "komi"),
             ({"komi": 0.5}, "komi"), ({"pie": "strong"}, "pie")],
}
COMMON_BAD = [({"max_moves": 0}, "max_moves"), ({"render_mode": "window"}, "render_mode"),
              ({"illegal_action": "ignore"}, "illegal_action"), ({"colour": 1}, "colour")]
GAMES = list(OPTION_SETS)


def module(game):
    return importlib.import_module(f"territory_envs.{game}_v0")


def cases(per_game):
    return [pytest.param(g, x, id=f"{g}-{i}") for g in GAMES for i, x in enumerate(per_game(g))]


@pytest.mark.parametrize("game,options", cases(lambda g: OPTION_SETS[g]))
def test_pettingzoo_api(game, options):
    api_test(module(game).env(**options), num_cycles=300)


@pytest.mark.parametrize("game,options", cases(lambda g: OPTION_SETS[g][:2]))
def test_pettingzoo_seed(game, options):
    seed_test(lambda: module(game).env(**options), num_cycles=300)


@pytest.mark.parametrize("game,options", cases(lambda g: OPTION_SETS[g][:2]))
def test_pettingzoo_render(game, options):
    render_test(lambda render_mode=None: module(game).env(render_mode=render_mode, **options))


@pytest.mark.parametrize("game,bad", cases(lambda g: BAD_OPTIONS[g] + COMMON_BAD))
def test_bad_options_raise_naming_the_option(game, bad):
    options, name = bad
    with pytest.raises(ValueError, match=name):
        module(game).env(**options)


@pytest.mark.parametrize("game", GAMES)
def test_make_and_registry(game):
    env = make(game, **SMALL[game])
    assert env.metadata["name"] == f"{game}_v0"
    assert game in territory_envs.registry() and game in territory_envs.game_names()
    with pytest.raises(ValueError, match="unknown game"):
        make("go")


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_make_gives_the_aec_and_parallel_envs(game):
    """``pettingzoo.make`` (PettingZoo 1.27's registry) under ``territory_envs/<game>-v0``, options passed on."""
    import pettingzoo
    from pettingzoo.test import parallel_api_test
    env_id = f"territory_envs/{game}-v0"
    assert territory_envs.registry()[game]["pettingzoo_id"] == env_id
    aec = pettingzoo.make("aec", env_id, **SMALL[game])
    assert aec.metadata["name"] == f"{game}_v0" and aec.unwrapped.game.options == make_game(game, **SMALL[game]).options
    api_test(aec, num_cycles=50)
    parallel = pettingzoo.make("parallel", env_id, **SMALL[game])
    assert parallel.metadata["name"] == f"{game}_v0"
    parallel_api_test(parallel, num_cycles=50)
    with pytest.raises(ValueError, match="board_size"):
        pettingzoo.make("aec", env_id, board_size=1)


@pytest.mark.parametrize("game", GAMES)
def test_max_moves_truncates(game):
    env = module(game).env(**SMALL[game], max_moves=6)
    env.reset(seed=1)
    steps = 0
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            assert trunc and not term and reward == 0 and info["winner"] == -1
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    assert steps == 6


@pytest.mark.parametrize("game", GAMES)
def test_agents_and_sides(game):
    env = module(game).env(**SMALL[game])
    sides = make_game(game).sides
    env.reset()
    assert env.possible_agents == ["player_0", "player_1"] and env.agent_selection == "player_0"
    assert [sides[env.infos[a]["side"]] for a in env.possible_agents] == list(sides)
    env.reset(options={"swap_sides": True})
    assert env.agent_selection == "player_1"
    assert [sides[env.infos[a]["side"]] for a in env.possible_agents] == list(sides[::-1])
    assert env.observe("player_0")["action_mask"].sum() == 0  # not on move
    assert env.observe("player_1")["action_mask"].sum() > 0


@pytest.mark.parametrize("game", GAMES)
def test_illegal_action_raise_option_raises_and_changes_nothing(game):
    env = module(game).env(**SMALL[game], illegal_action="raise")
    env.reset()
    env.step(int(np.flatnonzero(env.observe("player_0")["action_mask"])[0]))
    state = env.unwrapped.game_state
    before = state.to_dict()
    on_move = env.agent_selection
    masked = int(np.flatnonzero(state.legal_mask() == 0)[0])
    for bad in (masked, -1, state.game.num_actions, 3.5, "a1", None):
        with pytest.raises(IllegalActionError):
            env.step(bad)
        assert env.unwrapped.game_state.to_dict() == before
        assert env.agent_selection == on_move


@pytest.mark.parametrize("game", GAMES)
def test_an_illegal_action_loses_the_game_by_default_with_a_warning(game):
    env = module(game).env(**SMALL[game])  # illegal_action="lose", as PettingZoo's classic envs
    env.reset()
    first = int(np.flatnonzero(env.observe("player_0")["action_mask"])[0])
    env.step(first)
    offender = env.agent_selection  # player_1, or player_0 again on a double first turn
    with pytest.warns(IllegalActionWarning, match=f"{offender} played an illegal action"):
        env.step(first)  # occupied now
    assert env.terminations == {"player_0": True, "player_1": True}
    other = "player_1" if offender == "player_0" else "player_0"
    assert env.rewards == {offender: -1.0, other: 1.0}
    assert env.infos[offender]["illegal_action_by"] == int(offender[-1])
    assert env.infos[other]["winner"] == int(other[-1])


@pytest.mark.parametrize("game", GAMES)
def test_step_before_reset_raises(game):
    env = module(game).env()
    with pytest.raises(RuntimeError):
        env.step(0)
    with pytest.raises(RuntimeError):
        env.observe("player_0")


@pytest.mark.parametrize("game", GAMES)
def test_docstring_plane_table_matches_code(game):
    mod = module(game)
    planes = make_game(game).planes
    rows = re.findall(r"^(\d+)\s+([a-z_]+)\s+\S", mod.__doc__, flags=re.M)
    assert [(int(i), name) for i, name in rows] == [(i, p.name) for i, p in enumerate(planes)]
    space = mod.env().observation_space("player_0")["observation"]
    assert space.shape[-1] == len(planes)
    assert (space.low[0, 0] == [p.low for p in planes]).all() and (space.high[0, 0] == [p.high for p in planes]).all()


def check_state_invariants(state):
    clone = state.clone()
    assert clone == state and clone is not state
    assert territory_envs.state_from_dict(state.to_dict()) == state
    back = territory_envs.state_from_json(json.dumps(json.loads(state.to_json())))
    assert back == state and (back.mask == state.mask).all()
    assert np.flatnonzero(state.legal_mask()).tolist() == state.legal_actions().tolist()
    assert state.returns().sum() == 0
    for player in (0, 1):
        obs = state.observation(player)
        assert obs.dtype == np.int8 and obs.shape == state.game.obs_shape
        assert (obs >= state.game.obs_low).all() and (obs <= state.game.obs_high).all()
        assert (back.observation(player) == obs).all()
    if state.is_terminal():
        assert state.legal_mask().sum() == 0
    else:
        assert len(state.legal_actions()) > 0


@pytest.mark.parametrize("game", GAMES)
def test_random_simulation_checks(game):
    g = make_game(game, **SMALL[game])
    for seed in range(6):
        rng = np.random.default_rng(seed)
        state = g.new_state(swap_sides=bool(seed % 2))
        check_state_invariants(state)
        while not state.is_terminal():
            snapshot = state.clone()
            state.apply(int(rng.choice(state.legal_actions())))
            assert snapshot != state or state.game.name == "linage"  # a Linage pass may change nothing but history
            assert snapshot.move_number + 1 == state.move_number
            check_state_invariants(state)
        assert read_record(write_record(state)) == state
        assert set(state.returns().tolist()) <= {-1.0, 0.0, 1.0}


@pytest.mark.parametrize("game", GAMES)
def test_env_rewards_follow_state_returns_and_swap(game):
    for seed, swap in ((3, False), (4, True)):
        env = module(game).env(**SMALL[game])
        env.reset(seed=seed, options={"swap_sides": swap})
        rewards = {"player_0": 0.0, "player_1": 0.0}
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            rewards[agent] += reward
            if term or trunc:
                env.step(None)
                continue
            env.step(env.action_space(agent).sample(obs["action_mask"]))
        state = env.unwrapped.game_state
        assert [rewards["player_0"], rewards["player_1"]] == state.returns().tolist()
        if state.winner >= 0:
            assert rewards[f"player_{state.winner ^ state.flip}"] == 1.0


@pytest.mark.parametrize("game", GAMES)
def test_reset_from_given_state(game):
    g = make_game(game, **SMALL[game])
    state = g.new_state()
    for _ in range(2):
        state.apply(int(state.legal_actions()[0]))
    env = module(game).env(**SMALL[game])
    env.reset(options={"state": state})
    assert env.unwrapped.game_state == state and env.unwrapped.game_state is not state
    assert env.agent_selection == f"player_{state.current_player}"
    with pytest.raises(ValueError):
        module(game).env().reset(options={"state": state})


@pytest.mark.parametrize("game", GAMES)
def test_observe_works_for_any_agent_at_any_time(game):
    env = module(game).env(**SMALL[game])
    env.reset(seed=0)
    for agent in env.agent_iter():
        for other in env.possible_agents:
            env.observe(other)
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.agents == []
    final = env.observe("player_0")
    assert final["action_mask"].sum() == 0 and final["observation"].shape == make_game(game, **SMALL[game]).obs_shape


@pytest.mark.parametrize("name", ["lin", "linage", "lifeline", "asli"])
def test_infos_are_numbers_with_the_same_keys_all_game_long(name):
    """Libraries stack infos into tensors (TorchRL, Tianshou): every value a number, one key set."""
    import territory_envs
    small = {"lin": {"board_size": 5, "line_length": 3}, "linage": {"board_size": 5},
             "lifeline": {"board_size": 3}, "asli": {"board_size": 5}}[name]
    for illegal in (False, True):
        env = territory_envs.make(name, illegal_action="lose", **small)
        env.reset(seed=1)
        keys = {a: set(env.infos[a]) for a in env.agents}
        assert keys["player_0"] == keys["player_1"] >= {"side", "winner", "score", "illegal_action_by"}
        rng = np.random.default_rng(0)
        final = {}
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            assert set(info) == keys[agent]
            assert all(type(v) in (int, float) for v in info.values()), info
            if terminated or truncated:
                final[agent] = dict(info)
                action = None
            elif illegal and env.unwrapped.game_state.move_number == 3:
                action = int(np.flatnonzero(obs["action_mask"] == 0)[0])  # an illegal one: it loses
            else:
                action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            env.step(action)
        state = env.unwrapped.game_state
        assert {final[a]["side"] for a in final} == {0, 1}
        if illegal:
            offender = final["player_0"]["illegal_action_by"]
            assert offender in (0, 1) and final["player_0"]["winner"] == 1 - offender
        else:
            assert final["player_0"]["illegal_action_by"] == -1
            returns = state.returns()
            expected = -1 if returns[0] == returns[1] else int(np.argmax(returns))
            assert final["player_0"]["winner"] == final["player_1"]["winner"] == expected
            if name in ("lin", "linage"):
                scores = state.scores()
                assert final["player_0"]["score"] == float(scores[state.side_of(0)])
