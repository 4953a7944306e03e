"""RLlib: multi-agent PPO with action masking (territory_envs.rllib), two env runners, two
iterations, checkpoint and restore, Ray bound to the loopback address.

RLlib pins its own gymnasium, so this runs in an environment of its own: `.ci/run` makes one
(`pip install -e ".[rllib]"`) and runs this file there; elsewhere it is skipped."""
import numpy as np
import pytest

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def local_ray():
    # address="local": a Ray of its own, never a cluster an earlier run left recorded in /tmp/ray
    ray.init(address="local", num_cpus=3, include_dashboard=False, _node_ip_address="127.0.0.1", log_to_driver=False)
    yield
    ray.shutdown()


@pytest.mark.parametrize("game, options", [("lin", {"board_size": 5, "line_length": 3}), ("linage", {"board_size": 5}),
                                           ("lifeline", {"board_size": 3}), ("asli", {"board_size": 5})])
def test_rllibs_own_env_checker_passes_on_every_game(game, options):
    """RLlib's checker steps unmasked random actions; an illegal one ends its game with a loss
    (PettingZoo's convention), so the check passes. ppo_config still skips it in its env runners,
    where such a step would only print an IllegalActionWarning."""
    import warnings

    from ray.rllib.utils.pre_checks.env import check_multiagent_environments
    from territory_envs.rllib import RLlibTurnEnv
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # an illegal random action's warning is the checker's doing
        check_multiagent_environments(RLlibTurnEnv({"game": game, **options}))


def test_turn_env_gives_masked_float_observations_to_the_mover_only():
    from territory_envs.rllib import RLlibTurnEnv
    env = RLlibTurnEnv({"game": "asli", "board_size": 5})
    obs, _ = env.reset(seed=0)
    assert list(obs) == ["player_0"]
    rng = np.random.default_rng(0)
    while True:
        (agent, o), = obs.items()
        assert o["observations"].dtype == np.float32 and env.observation_spaces[agent].contains(o)
        action = int(rng.choice(np.flatnonzero(o["action_mask"])))
        obs, rewards, dones, truncs, _ = env.step({agent: action})
        if dones["__all__"] or truncs["__all__"]:
            assert set(obs) == {"player_0", "player_1"} and sum(rewards.values()) == 0
            break


def test_ppo_trains_checkpoints_and_restores(local_ray, tmp_path):
    import torch
    from ray.rllib.algorithms.algorithm import Algorithm

    from territory_envs.rllib import ppo_config
    algo = ppo_config("lin", num_env_runners=2, board_size=5, line_length=3).build_algo()
    for _ in range(2):
        result = algo.train()
    assert result["env_runners"]["num_episodes"] > 0
    algo.save_to_path(str(tmp_path))
    weights = algo.get_module("shared").state_dict()
    algo.stop()
    restored = Algorithm.from_checkpoint(str(tmp_path))
    again = restored.get_module("shared").state_dict()
    assert all(torch.equal(torch.as_tensor(weights[k]), torch.as_tensor(again[k])) for k in weights)
    restored.train()  # and it trains on
    restored.stop()
