"""Property-based attack on every entry point (hypothesis): random actions of any type, random
option values, corrupted records and state dicts, through the state API, the AEC env and the vector
env. Whatever comes in, only the documented exceptions come out (``IllegalActionError`` for an
action, ``ValueError`` for an option, record or dict), a refusal changes nothing, and whatever is
accepted is a state the rules reach: it replays from the start of its game to exactly itself.

The default profile keeps the suite to a minute or so; ``-m slow`` runs the same properties with
many more examples."""
import json
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from territory_envs import IllegalActionError, make, make_game, read_record, state_from_dict, write_record
from territory_envs.vector import make_vec

SMALL = {"lin": {"board_size": 5, "line_length": 3}, "linage": {"board_size": 5},
         "lifeline": {"board_size": 3}, "asli": {"board_size": 5}}
GAMES = sorted(SMALL)
QUICK = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LONG = settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# the drawn actions are illegal on purpose: under illegal_action="lose" each warns
pytestmark = pytest.mark.filterwarnings("ignore::territory_envs.core.game.IllegalActionWarning")

# anything a user might pass where an action or an option value belongs
junk = st.one_of(
    st.none(), st.booleans(), st.text(max_size=8), st.binary(max_size=4),
    st.floats(allow_nan=True, allow_infinity=True), st.integers(min_value=-(2**70), max_value=2**70),
    st.integers(-3, 120).map(float), st.integers(-3, 120).map(np.int64), st.integers(-3, 120).map(np.float32),
    st.integers(-3, 120).map(np.array), st.lists(st.integers(-3, 120), max_size=3), st.fractions(),
    st.complex_numbers(allow_nan=True, allow_infinity=True),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)
# an action: mostly plain integers near the legal range (so that games are played), some junk
action_draw = st.one_of(st.integers(-2, 130), st.integers(-2, 130), st.integers(-2, 130), junk)


def is_integer(action):
    """The documented action rule: ints, numpy integers and 0-d integer arrays; never bools or floats."""
    if isinstance(action, np.ndarray):
        return action.ndim == 0 and action.dtype.kind in "iu"
    return isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_))


def replays_to_itself(state):
    """``state`` is reached by its history from the start of its game (when the history is whole)."""
    if len(state.history) != state.move_number:
        return
    replay = state.game.new_state(swap_sides=bool(state.start_flip()))
    for action in state.history:
        replay.apply(action)
    assert replay.to_dict() == state.to_dict()


def play_drawn(state, data, steps):
    """Apply ``steps`` drawn actions; a refused one must raise IllegalActionError and change nothing."""
    for _ in range(steps):
        if state.terminal:
            break
        action = data.draw(action_draw)
        before = state.to_dict()
        legal = set(state.legal_actions().tolist())
        if is_integer(action) and int(action) in legal:
            state.apply(action)
        else:
            with pytest.raises(IllegalActionError):
                state.apply(action)
            assert state.to_dict() == before
    return state


def check_state_api(data, name):
    state = play_drawn(make_game(name, **SMALL[name]).new_state(), data, data.draw(st.integers(0, 40)))
    again = state_from_dict(state.to_dict())
    assert again == state and read_record(write_record(state)) == state
    replays_to_itself(state)


def check_env(data, name):
    illegal_action = data.draw(st.sampled_from(["raise", "lose"]))
    env = make(name, illegal_action=illegal_action, **SMALL[name])
    env.reset(seed=data.draw(st.integers(0, 2**32)))
    for _ in range(data.draw(st.integers(1, 30))):
        if not env.agents:
            break
        obs, _, terminated, truncated, _ = env.last()
        done = terminated or truncated
        action = None if done else data.draw(action_draw)
        legal = done or is_integer(action) and 0 <= action < len(obs["action_mask"]) and \
            obs["action_mask"][int(action)]
        before = env.game_state.to_dict()
        if legal or illegal_action == "lose":
            env.step(action)
            if not legal:  # the mover lost at once
                assert env.game_state.to_dict()["board"] == before["board"]
                assert all(env.terminations.values()) and sum(env.rewards.values()) == 0
        else:
            with pytest.raises(IllegalActionError):
                env.step(action)
            assert env.game_state.to_dict() == before
    replays_to_itself(env.game_state)


def check_vector(data, name):
    vec = make_vec(name, 3, **SMALL[name])
    vec.reset(seed=data.draw(st.integers(0, 2**32)))
    for _ in range(data.draw(st.integers(1, 12))):
        masks = vec.action_masks
        if data.draw(st.booleans()):
            actions = vec.sample_actions()
        else:
            actions = np.array(data.draw(st.lists(st.integers(-3, 130), min_size=3, max_size=3)))
            if data.draw(st.booleans()):
                actions = actions.astype(data.draw(st.sampled_from([np.float64, np.int8, np.uint8, np.int64])))
        if data.draw(st.booleans()):
            masks[:] = 1  # editing what was handed out must change nothing
        before = [vec.get_state(i).to_dict() for i in range(3)]
        ok = (actions.dtype.kind in "iu" and
              all(0 <= a < vec.single_action_space_n and vec._batch.mask[i, a] for i, a in enumerate(actions)))
        if ok:
            vec.step(actions)
        else:
            with pytest.raises(IllegalActionError):
                vec.step(actions)
            assert [vec.get_state(i).to_dict() for i in range(3)] == before
    for i in range(3):
        state = vec.get_state(i)
        assert state_from_dict(state.to_dict()) == state


@pytest.mark.parametrize("name", GAMES)
@QUICK
@given(data=st.data())
def test_state_api_under_random_actions(name, data):
    check_state_api(data, name)


@pytest.mark.parametrize("name", GAMES)
@QUICK
@given(data=st.data())
def test_env_under_random_actions(name, data):
    check_env(data, name)


@pytest.mark.parametrize("name", GAMES)
@settings(QUICK, max_examples=15)
@given(data=st.data())
def test_vector_env_under_random_actions(name, data):
    check_vector(data, name)


# --- options ------------------------------------------------------------------------------------
def check_options(data, name):
    option = data.draw(st.sampled_from(sorted(make_game(name).options)))
    value = data.draw(st.one_of(junk, st.integers(-3, 30)))
    try:
        game = make_game(name, **{option: value})
    except ValueError:
        return
    # accepted: normalised to plain Python values that serialise and come back the same
    assert json.loads(json.dumps(game.options)) == game.options
    for v in game.options.values():
        assert v is None or type(v) in (int, float, str, bool)
        assert not isinstance(v, float) or math.isfinite(v)
    state = game.new_state()
    assert state_from_dict(json.loads(state.to_json())) == state
    assert read_record(write_record(state)) == state


@pytest.mark.parametrize("name", GAMES)
@settings(QUICK, max_examples=60)
@given(data=st.data())
def test_random_option_values_are_refused_or_normalised(name, data):
    check_options(data, name)


def test_env_and_vector_options_are_checked_the_same_way():
    for bad in ({"board_size": 2.5}, {"komi": float("nan")}, {"max_moves": True}, {"colour": 1}):
        with pytest.raises(ValueError):
            make("lin", **bad)
        with pytest.raises(ValueError):
            make_vec("lin", 2, **bad)


# --- records and dicts --------------------------------------------------------------------------
def a_game(data, name):
    state = make_game(name, **SMALL[name]).new_state()
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32)))
    for _ in range(data.draw(st.integers(0, 60))):
        if state.terminal:
            break
        state.apply(int(rng.choice(state.legal_actions())))
    return state


def corrupt_text(data, text):
    lines = text.split("\n")
    how = data.draw(st.sampled_from(["drop", "swap", "edit", "insert", "truncate", "duplicate"]))
    i = data.draw(st.integers(0, len(lines) - 1))
    if how == "drop":
        del lines[i]
    elif how == "swap":
        j = data.draw(st.integers(0, len(lines) - 1))
        lines[i], lines[j] = lines[j], lines[i]
    elif how == "edit":
        line = lines[i]
        k = data.draw(st.integers(0, len(line)))
        lines[i] = line[:k] + data.draw(st.text(max_size=3)) + line[k + 1:]
    elif how == "insert":
        lines.insert(i, data.draw(st.text(max_size=12)))
    elif how == "duplicate":
        lines.insert(i, lines[i])
    else:
        return text[:data.draw(st.integers(0, len(text)))]
    return "\n".join(lines)


def check_record(data, name):
    text = corrupt_text(data, write_record(a_game(data, name)))
    try:
        state = read_record(text)
    except ValueError as err:
        assert len(str(err)) < 400
        return
    replays_to_itself(state)
    assert state_from_dict(state.to_dict()) == state


def corrupt_dict(data, d):
    d = json.loads(json.dumps(d))
    field = data.draw(st.sampled_from(sorted(d)))
    value = d[field]
    how = data.draw(st.sampled_from(["junk", "nudge", "drop"]))
    if how == "drop":
        del d[field]
    elif how == "junk":
        d[field] = data.draw(junk.filter(lambda v: not isinstance(v, (np.ndarray, np.generic, bytes, complex))))
    elif isinstance(value, bool):
        d[field] = not value
    elif isinstance(value, int):
        d[field] = value + data.draw(st.sampled_from([-1, 1, 2**40]))
    elif isinstance(value, list) and value:
        k = data.draw(st.integers(0, len(value) - 1))
        if isinstance(value[k], (int, bool)):
            value[k] = (not value[k]) if isinstance(value[k], bool) else value[k] + data.draw(st.sampled_from([-1, 1, 2]))
        else:
            del value[k]
    elif isinstance(value, dict) and value:
        key = data.draw(st.sampled_from(sorted(value)))
        value[key] = data.draw(st.one_of(junk, st.integers(-3, 30)))
    return d


def check_dict(data, name):
    original = a_game(data, name)
    d = corrupt_dict(data, original.to_dict())
    if data.draw(st.booleans()):
        d["history"] = []  # a position taken out of its game: only the position checks remain
    try:
        state = state_from_dict(d)
    except ValueError as err:
        assert len(str(err)) < 400
        return
    replays_to_itself(state)
    assert state_from_dict(state.to_dict()) == state
    # a state that is accepted plays on like any other
    if not state.terminal:
        state.clone().apply(int(state.legal_actions()[0]))


@pytest.mark.parametrize("name", GAMES)
@settings(QUICK, max_examples=60)
@given(data=st.data())
def test_corrupted_records_are_refused_or_replay(name, data):
    check_record(data, name)


@pytest.mark.parametrize("name", GAMES)
@settings(QUICK, max_examples=60)
@given(data=st.data())
def test_corrupted_state_dicts_are_refused_or_reachable(name, data):
    check_dict(data, name)


# --- the same properties, many more examples ----------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("check", [check_state_api, check_env, check_vector, check_options, check_record,
                                   check_dict], ids=lambda f: f.__name__)
@pytest.mark.parametrize("name", GAMES)
@LONG
@given(data=st.data())
def test_properties_at_length(check, name, data):
    check(data, name)
