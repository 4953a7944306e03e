"""Bad input is refused cleanly and changes nothing; the PettingZoo contract is kept to the letter.

Each test here pins one defect that the engines once had (an error of the wrong type, a state
corrupted through an array the user held, a method shadowed by an attribute) so that it stays fixed.
The property-based sweep over the same ground is ``test_properties.py``.
"""
from fractions import Fraction
import importlib
import logging

import numpy as np
import pytest
from pettingzoo.test import parallel_api_test, parallel_seed_test, state_test

import territory_envs
from territory_envs import IllegalActionError, IllegalActionWarning, make, make_game, read_record, state_from_dict, write_record
from territory_envs.vector import make_vec
from tests.positions import random_game

SMALL = {"lin": {"board_size": 5, "line_length": 3}, "linage": {"board_size": 5},
         "lifeline": {"board_size": 3}, "asli": {"board_size": 5}}
GAMES = list(SMALL)


def played(name, moves=6, seed=0, **options):
    """A state of ``name`` after up to ``moves`` random legal actions."""
    return random_game(make_game(name, **{**SMALL[name], **options}), moves, seed)


def finished(name, seed=0):
    return played(name, moves=10_000, seed=seed)


# --- actions --------------------------------------------------------------------------------------
NOT_ACTIONS = [3.0, np.float64(3.0), float("inf"), float("-inf"), float("nan"), "3", None, [3], np.array([3]),
               True, np.bool_(False), 1 + 0j, 10**30, -1, object()]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("action", NOT_ACTIONS, ids=repr)
def test_every_bad_action_is_an_illegal_action_error_and_changes_nothing(name, action):
    state = played(name, moves=2)
    before = state.to_dict()
    with pytest.raises(IllegalActionError):
        state.apply(action)
    assert state.to_dict() == before and not state.is_legal(action)
    env = make(name, illegal_action="raise", **SMALL[name])
    env.reset(seed=0)
    with pytest.raises(IllegalActionError):
        env.step(action)
    assert env.game_state.move_number == 0 and env.agents == ["player_0", "player_1"]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("action", [float("inf"), float("nan"), 3.0, "e5", 10**30], ids=repr)
def test_a_bad_action_loses_the_game_under_illegal_action_lose(name, action):
    env = make(name, illegal_action="lose", **SMALL[name])
    env.reset(seed=0)
    with pytest.warns(IllegalActionWarning):
        env.step(action)
    _, reward, terminated, _, info = env.last()
    assert terminated and reward == -1.0 and info["illegal_action_by"] == 0
    assert env.rewards == {"player_0": -1.0, "player_1": 1.0}


def test_integer_actions_of_every_kind_play():
    for action in (12, np.int64(12), np.int8(12), np.array(12), np.uint16(12)):
        state = make_game("lin", board_size=5, line_length=3).new_state()
        assert state.apply(action).history == [12] and type(state.history[0]) is int


# --- the vector env's mask ------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_editing_the_handed_out_mask_lets_no_illegal_action_through(name):
    vec = make_vec(name, 4, **SMALL[name])
    obs, info = vec.reset(seed=0)
    vec.step(vec.sample_actions())
    occupied = int(np.flatnonzero(vec.get_state(0).board)[0])
    board = vec._batch.board.copy()
    vec.action_masks[:] = 1  # a user who writes into the mask it was given ...
    info["action_mask"][:] = 1
    actions = vec.sample_actions()
    actions[0] = occupied
    with pytest.raises(IllegalActionError, match=r"games \[0\]"):  # ... still cannot place on a stone
        vec.step(actions)
    assert (vec._batch.board == board).all()
    _, _, _, _, info = vec.step(vec.sample_actions())  # the next step hands out the true mask again
    assert info["action_mask"][0, occupied] == 0


def test_vector_env_refuses_bad_arguments_by_name():
    vec = make_vec("lin", 3, board_size=5, line_length=3)
    with pytest.raises(RuntimeError, match="before reset"):
        vec.get_state(0)
    vec.reset(seed=1)
    state = vec.get_state(1)
    for i in (-1, 3, 1.0, True, "0"):
        with pytest.raises(ValueError, match="game index"):
            vec.set_state(i, state)
        with pytest.raises(ValueError, match="game index"):
            vec.get_state(i)
    with pytest.raises(ValueError, match="set_state: state='junk'"):
        vec.set_state(0, "junk")
    with pytest.raises(ValueError, match="not of lin"):
        vec.set_state(0, make_game("lin", board_size=7).new_state())
    for threads in (True, 0, 1.0, "2"):
        with pytest.raises(ValueError, match="num_threads"):
            make_vec("lin", 2, num_threads=threads)
    with pytest.raises(ValueError, match="num_envs"):
        make_vec("lin", True)
    with pytest.raises(ValueError, match="seed"):
        vec.reset(seed=-1)
    with pytest.raises(IllegalActionError, match="floats are refused"):
        vec.step(np.zeros(3))


# --- notation on every accepted board -------------------------------------------------------------
@pytest.mark.parametrize("side", [14, 15])
def test_large_lifeline_boards_have_a_notation_for_every_cell(side):
    game = make_game("lifeline", board_size=side)
    names = [game.action_to_notation(c) for c in np.flatnonzero(game.geometry.on_board)]
    assert len(set(names)) == len(names) and {game.notation_to_action(t) for t in names} == \
        set(np.flatnonzero(game.geometry.on_board).tolist())
    last = {14: "aa1", 15: "ac1"}[side]  # the bottom-right cell, in the 27th or 29th column
    assert game.action_to_notation(game.geometry.cell(2 * side - 2, 2 * side - 2)) == last
    state = game.new_state()
    rng = np.random.default_rng(side)
    for _ in range(40):
        state.apply(int(rng.choice(state.legal_actions())))
    assert read_record(write_record(state)) == state
    with pytest.raises(IllegalActionError, match="illegal action"):
        state.apply(int(np.flatnonzero(state.board)[-1]))  # the refusal names the point in notation
    env = make("lifeline", board_size=side, illegal_action="lose")
    env.reset()
    env.step(0)  # off the board, in column a: ends the game, no IndexError
    assert env.terminations["player_0"]


# --- options --------------------------------------------------------------------------------------
@pytest.mark.parametrize("komi,plain", [(np.int64(2), 2), (np.float32(0.5), 0.5), (Fraction(1, 2), 0.5),
                                        (2.0, 2.0), (-3, -3)])
def test_options_become_plain_python_values(komi, plain):
    game = make_game("linage", board_size=5, komi=komi)
    assert game.options["komi"] == plain and type(game.options["komi"]) is type(plain)
    state = game.new_state()
    assert read_record(write_record(state)) == state and state_from_dict(state.to_dict()) == state
    state.to_json()


@pytest.mark.parametrize("name,options,message", [
    ("linage", {"komi": Fraction(1, 3)}, "float holds exactly"),
    ("linage", {"komi": float("nan")}, "finite"),
    ("lin", {"komi": 2.5}, "whole number"),
    ("lin", {"board_size": np.bool_(True)}, "board_size"),
    ("lifeline", {"pie": np.array("weak")}, "pie"),
    ("lifeline", {"komi": 3}, "only the komi pie"),
    ("lifeline", {"pie": "weak", "komi": 1}, "only the komi pie"),
    ("asli", {"komi": 2.5}, "whole number"),
    ("asli", {"komi": -1}, "between 0"),
])
def test_bad_options_are_refused_by_name(name, options, message):
    with pytest.raises(ValueError, match=message):
        make_game(name, **options)


def test_one_komi_rule_for_the_whole_number_games():
    for name, extra in (("lin", {}), ("lifeline", {"pie": "komi"}), ("asli", {})):
        assert make_game(name, komi=2.0, **extra).options["komi"] == 2
        assert type(make_game(name, komi=np.int16(2), **extra).options["komi"]) is int
    assert make_game("lifeline", pie="strong", komi=0).options["komi"] == 0


def test_render_overlays_and_illegal_action_options_are_checked():
    with pytest.raises(ValueError, match="render_overlays"):
        make("lin", render_overlays="yes")
    with pytest.raises(ValueError, match="illegal_action"):
        make("lin", illegal_action=["raise"])


# --- state dicts ----------------------------------------------------------------------------------
def _mutated(name, field, value, state=None):
    data = (state or played(name)).to_dict()
    data[field] = value
    return data


@pytest.mark.parametrize("name,field,value", [
    ("asli", "prison", [2**40, 0]),
    ("asli", "prison", [0.5, 0]),
    ("asli", "seen", [0]),
    ("asli", "pending", 3),
    ("lifeline", "pending", -3),
    ("lifeline", "komi_left", 4),
    ("lin", "move_number", -5),
    ("lin", "move_number", 2**40),
    ("lin", "to_move", True),
    ("lin", "to_move", 1.0),
    ("lin", "winner", 1),
    ("lin", "terminal", True),
    ("linage", "passes", 3),
    ("linage", "board", [0.5] * 25),
    ("linage", "board", "0" * 25),
    ("linage", "history", [10**30]),
    ("linage", "history", "e5"),
    ("lin", "options", {"board_size": 7}),
    ("lin", "game", ["lin"]),
])
def test_corrupt_state_dicts_are_refused_naming_the_field(name, field, value):
    with pytest.raises(ValueError, match=f"'{field}'"):
        state_from_dict(_mutated(name, field, value))


@pytest.mark.parametrize("name", GAMES)
def test_a_history_that_does_not_lead_to_the_state_is_refused(name):
    state = played(name, moves=4)
    data = state.to_dict()
    # the same moves but the last, which is another legal one
    replay = make_game(name, **SMALL[name]).new_state()
    for action in data["history"][:-1]:
        replay.apply(action)
    other = next(a for a in replay.legal_actions() if a != data["history"][-1])
    data["history"] = data["history"][:-1] + [int(other)]
    with pytest.raises(ValueError, match="history"):
        state_from_dict(data)
    data = state.to_dict()
    data["board"] = [0] * len(data["board"])
    with pytest.raises(ValueError, match="'board'"):
        state_from_dict(data)
    data = state.to_dict()
    data["history"] = data["history"] + [0]  # longer than the moves counted
    with pytest.raises(ValueError, match="'history'"):
        state_from_dict(data)
    assert state_from_dict(state.to_dict()) == state  # and the true record is taken


def test_positions_that_no_game_reaches_are_refused():
    from tests.positions import asli_position, lifeline_position, lin_position
    with pytest.raises(ValueError, match="outside black's living domains"):
        lin_position(["XXX.O", "OOOOO", ".....", ".....", "....."], line_length=5)
    with pytest.raises(ValueError, match="'terminal'"):  # White to move without a legal action
        asli_position(["XXXXX", "XO.OX", "XXXXX", ".....", "..X.."], to_move="white")
    with pytest.raises(ValueError, match="dead group"):
        asli_position(["XO...", ".....", ".....", ".....", "....."])
    with pytest.raises(ValueError, match="dead group"):
        lifeline_position(4, black=["a4", "b4"], white=["c4", "d3", "b3", "a3"])
    with pytest.raises(ValueError, match="first_turn_done"):
        lifeline_position(4, black=["d4", "a4"], first_turn_done=[False, False])
    # the same positions, set up by hand on purpose, are taken
    lin_position(["XXX.O", "OOOOO", ".....", ".....", "....."], line_length=5, reachable=False)
    asli_position(["XO...", ".....", ".....", ".....", "....."], reachable=False)


@pytest.mark.parametrize("name", GAMES)
def test_finished_and_mid_game_dicts_round_trip(name):
    for state in (played(name, moves=3), finished(name)):
        assert state_from_dict(state.to_dict()) == state
        assert territory_envs.state_from_json(state.to_json()) == state


def test_bad_inputs_to_the_readers():
    for junk in (None, 5, b"moves:"):
        with pytest.raises(ValueError, match="read_record"):
            read_record(junk)
    for junk in (None, "[]", "{", "5"):
        with pytest.raises(ValueError, match="state"):
            territory_envs.state_from_json(junk)
    with pytest.raises(ValueError, match="state dict"):
        state_from_dict({"game": "lin", "options": {1: 2}})


def test_a_huge_line_of_junk_gives_a_short_error():
    text = write_record(played("lin", moves=3))
    lines = text.splitlines()
    lines.insert(len(lines) - 1, "x" * 5_000_000)
    with pytest.raises(ValueError, match="record line") as err:
        read_record("\n".join(lines))
    assert len(str(err.value)) < 500
    with pytest.raises(ValueError) as err:
        read_record(text.replace("game: lin", "game: " + "y" * 5_000_000))
    assert len(str(err.value)) < 800


def test_a_state_taken_out_of_a_batch_writes_no_record_that_would_replay_wrong():
    vec = make_vec("lin", 2, board_size=5, line_length=3)
    vec.reset(seed=0)
    vec.step(vec.sample_actions())
    state = vec.get_state(0)
    with pytest.raises(ValueError, match="replays from the start"):
        write_record(state)
    assert state_from_dict(state.to_dict()) == state  # a position set up: its dict is taken


# --- the AEC env ----------------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_order_of_calls_gives_clear_errors(name, caplog):
    env = make(name, **SMALL[name])
    for call in (env.last, env.state, env.agent_iter, lambda: env.step(0), lambda: env.observe("player_0")):
        with pytest.raises(RuntimeError, match="before reset"):
            call()
    env.reset(seed=0)
    with pytest.raises(ValueError, match="no agent"):
        env.observe("player_7")
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.agents == []
    with caplog.at_level(logging.WARNING):
        env.step(None)  # every agent is done: PettingZoo's warning, nothing changes
    assert "step" in caplog.text.lower() and env.agents == []


@pytest.mark.parametrize("name", GAMES)
def test_reset_options_are_checked(name):
    env = make(name, **SMALL[name])
    with pytest.raises(ValueError, match="options=5"):
        env.reset(options=5)
    with pytest.raises(ValueError, match=r"options\['state'\]='junk'"):
        env.reset(options={"state": "junk"})
    with pytest.raises(ValueError, match="swap_sides"):
        env.reset(options={"swap_sides": "no"})
    with pytest.raises(ValueError, match="seed"):
        env.reset(seed=1.5)
    other = next(g for g in GAMES if g != name)
    with pytest.raises(ValueError, match="not of"):
        env.reset(options={"state": make_game(other).new_state()})
    env.reset(options={"swap_sides": np.bool_(True)})
    assert env.infos["player_1"]["side"] == 0


@pytest.mark.parametrize("name", GAMES)
def test_reset_from_a_finished_state_reports_its_rewards(name):
    state = finished(name)
    env = make(name, **SMALL[name])
    env.reset(options={"state": state})
    _, reward, terminated, _, _ = env.last()
    assert terminated and reward == env.rewards[env.agent_selection]
    expected = state.returns()
    assert env.rewards == {"player_0": float(expected[0]), "player_1": float(expected[1])}
    assert env._cumulative_rewards == env.rewards


@pytest.mark.parametrize("name", GAMES)
def test_global_state_and_game_state(name):
    env = make(name, **SMALL[name])
    env.reset(seed=0)
    assert callable(env.state) and env.unwrapped.game_state.move_number == 0
    env.step(int(env.game_state.legal_actions()[0]))
    state = env.state()
    assert env.state_space.contains(state)
    mover = env.game_state.current_player
    assert (state[..., :-1] == env.game_state.observation(mover)).all() and (state[..., -1] == mover).all()


def env_module(name):
    return importlib.import_module(f"territory_envs.{name}_v0")


# PettingZoo's state, parallel and seed tests sample actions without the mask: by default an
# illegal one ends the game with a loss (and a warning, ignored here), as in PettingZoo's classic envs
@pytest.mark.parametrize("name", GAMES)
@pytest.mark.filterwarnings("ignore::territory_envs.core.game.IllegalActionWarning")
def test_pettingzoo_state_test(name):
    state_test(make(name), env_module(name).parallel_env(), num_cycles=50)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.filterwarnings("ignore::territory_envs.core.game.IllegalActionWarning")
def test_pettingzoo_parallel_tests(name):
    module = env_module(name)
    parallel_api_test(module.parallel_env(), num_cycles=300)
    parallel_seed_test(lambda: module.parallel_env(), num_cycles=100)
    parallel_api_test(module.parallel_env(**SMALL[name]), num_cycles=300)


def test_one_sided_bounds_are_said_plainly():
    from territory_envs.core.options import check_number
    with pytest.raises(ValueError, match=r"x=-1: must be at least 0$"):
        check_number("x", -1, low=0)
    with pytest.raises(ValueError, match=r"x=5: must be at most 4$"):
        check_number("x", 5, high=4)


# --- a default never rules out another valid option ---------------------------------------------------
VALID_ALONE = {  # every value each option takes, set alone (the others at their defaults)
    "lin": {"board_size": range(5, 26, 2), "line_length": range(2, 10), "komi": (-4, 0, 6)},
    "linage": {"board_size": range(3, 26), "line_length": range(2, 6), "komi": (-2.5, 0, 7)},
    "lifeline": {"board_size": range(3, 16), "pie": ("strong", "weak", "komi")},
    "asli": {"board_size": range(4, 26), "komi": (0, 5)},
}


@pytest.mark.parametrize("name", sorted(VALID_ALONE))
def test_a_default_never_rules_out_another_valid_option(name):
    for option, values in VALID_ALONE[name].items():
        for value in values:
            game = make_game(name, **{option: value})
            assert game.options[option] == value


def test_lins_line_follows_the_board_only_where_six_does_not_fit():
    assert make_game("lin", board_size=5).options["line_length"] == 5
    assert [make_game("lin", board_size=b).options["line_length"] for b in (7, 9, 19)] == [6, 6, 6]
    assert make_game("lin", board_size=5, line_length=3).options["line_length"] == 3
    assert territory_envs.registry()["lin"]["options"]["line_length"] == "6, or the board size if smaller"


def test_a_default_that_the_other_options_rule_out_is_named_as_a_default(monkeypatch):
    from territory_envs.games.lin import LinGame
    monkeypatch.setattr(LinGame, "option_defaults", {"board_size": 9, "line_length": 6, "komi": 0})
    with pytest.raises(ValueError, match=r"line_length=6: .*line_length was not given: this is its default"):
        make_game("lin", board_size=5)
    with pytest.raises(ValueError) as given:  # given by the caller: no word of defaults
        make_game("lin", board_size=5, line_length=6)
    assert "default" not in str(given.value)
