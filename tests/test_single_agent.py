"""The single-agent Gymnasium envs: registered ids, gymnasium's checker, the opponent inside."""
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import territory_envs
from territory_envs import IllegalActionError, IllegalActionWarning, SingleAgentEnv

SMALL = {"lin": {"board_size": 5, "line_length": 3}, "linage": {"board_size": 5},
         "lifeline": {"board_size": 3}, "asli": {"board_size": 5}}


def play(env, rng, episodes=3):
    """Random legal episodes; returns (rewards, infos) of the last step of each."""
    ends = []
    env.reset(seed=0)
    for episode in range(episodes):
        obs, info = env.reset()
        while True:
            mask = env.get_wrapper_attr("action_masks")()  # as sb3-contrib reaches it
            assert (mask == obs["action_mask"].astype(bool)).all() and mask.any()
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            if terminated or truncated:
                ends.append((reward, info, terminated))
                break
            assert reward == 0.0
    return ends


@pytest.mark.parametrize("name", sorted(SMALL))
def test_registered_and_passes_gymnasiums_and_sb3s_checkers(name):
    # the checkers step unmasked random actions: by default an illegal one ends the episode with a
    # loss (and a warning), on the default options as on small boards
    from stable_baselines3.common.env_checker import check_env as sb3_check_env
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IllegalActionWarning)
        for options in ({}, SMALL[name]):
            check_env(gymnasium.make(territory_envs.GYM_IDS[name], **options).unwrapped, skip_render_check=True)
            sb3_check_env(gymnasium.make(territory_envs.GYM_IDS[name], **options).unwrapped, warn=False)
    env = gymnasium.make(territory_envs.GYM_IDS[name], **SMALL[name])
    assert env.unwrapped.game.options["board_size"] == SMALL[name]["board_size"]
    ends = play(env, np.random.default_rng(0))
    for reward, info, terminated in ends:
        assert reward in (-1.0, 0.0, 1.0)
        if terminated and reward:
            assert info["winner"] == (0 if reward > 0 else 1)
        assert all(type(v) in (int, float) for v in info.values())


@pytest.mark.parametrize("seat", [0, 1])
def test_the_agents_final_reward_is_its_own_even_when_the_opponent_ends_the_game(seat):
    env = SingleAgentEnv("lin", seat=seat, opponent="greedy", **SMALL["lin"])
    results = play(env, np.random.default_rng(1), episodes=6)
    # random play against greedy: the agent loses most games, and each loss is its reward
    assert sum(r for r, _, _ in results) < 0
    for reward, info, _ in results:
        assert info["side"] == seat
        assert reward == {0: 1.0, 1: -1.0, -1: 0.0}[info["winner"]]


def test_seats_alternate_and_the_opponent_moves_first_when_it_has_the_first_side():
    env = SingleAgentEnv("lin", **SMALL["lin"])
    obs, info = env.reset(seed=0)
    assert info["side"] == 0 and info["opponent_moves"] == 0 and env.state.move_number == 0
    obs, info = env.reset()
    assert info["side"] == 1 and info["opponent_moves"] == 1 and env.state.move_number == 1
    obs, info = env.reset(seed=0)  # a seed restarts the alternation
    assert info["side"] == 0


def test_opponents_of_every_kind_and_bad_ones():
    calls = []

    def first_legal(observation, mask):
        calls.append(observation["observation"].shape)
        return int(np.flatnonzero(mask)[0])
    env = SingleAgentEnv("lifeline", opponent=first_legal, seat=1, **SMALL["lifeline"])
    env.reset(seed=0)
    assert calls
    with pytest.raises(IllegalActionError, match="opponent"):
        SingleAgentEnv("lin", opponent=lambda o, m: 10**6, seat=1, **SMALL["lin"]).reset()
    for bad, message in ((42, "opponent"), ("nobody", "nobody")):
        with pytest.raises(ValueError, match=message):
            SingleAgentEnv("lin", opponent=bad, **SMALL["lin"])
    with pytest.raises(ValueError, match="seat"):
        SingleAgentEnv("lin", seat=2, **SMALL["lin"])
    with pytest.raises(ValueError, match="board_size"):
        gymnasium.make("territory_envs/Lin-v0", board_size=4)


def test_illegal_actions_and_float_observations():
    env = SingleAgentEnv("asli", obs_dtype="float32", illegal_action="raise", **SMALL["asli"])
    obs, _ = env.reset(seed=0)
    assert obs["observation"].dtype == np.float32 and env.observation_space.contains(obs)
    before = env.state.to_dict()
    with pytest.raises(IllegalActionError):
        env.step(3.0)
    assert env.state.to_dict() == before
    env = SingleAgentEnv("asli", **SMALL["asli"])  # illegal_action="lose", the default
    env.reset(seed=0)
    env.step(0)
    with pytest.warns(IllegalActionWarning, match="the agent played an illegal action"):
        obs, reward, terminated, truncated, info = env.step(10**6)
    assert terminated and reward == -1.0 and info["winner"] == 1
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_mean_return_alternates_seats_and_refuses_a_bad_count():
    from territory_envs.single import mean_return

    def first_legal(observation, action_mask):
        return int(np.flatnonzero(action_mask)[0])

    seen_sides = []

    def recording(observation, action_mask):
        seen_sides.append(bool(action_mask.all()))  # every cell of Lin 5x5 free: the agent opens the game
        return first_legal(observation, action_mask)

    # greedy beats a policy that always takes the first legal cell: a clearly negative mean return
    assert mean_return(first_legal, "lin", 20, opponent="greedy", board_size=5, line_length=3) < -0.5
    assert mean_return(recording, "lin", 4, board_size=5, line_length=3) in {-1.0, -0.5, 0.0, 0.5, 1.0}
    assert seen_sides.count(True) == 2  # of 4 games, the agent opened 2 (seats alternate)
    for bad in (0, -3, 2.5, True):
        with pytest.raises(ValueError, match="episodes"):
            mean_return(first_legal, "lin", bad)
