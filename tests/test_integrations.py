"""Short real runs of the libraries users plug the envs into (installed by the dev extra)."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))


def test_sb3_maskable_ppo_trains_without_an_illegal_action():
    pytest.importorskip("sb3_contrib")
    import sb3_maskable_ppo as example  # examples/sb3_maskable_ppo.py
    # the env raises IllegalActionError on any illegal action, so finishing proves there was none
    model = example.train(2048, seed=0, board_size=5, line_length=3)
    assert model.num_timesteps >= 2048
    example.win_rate(model, 4, board_size=5, line_length=3)  # masked predictions: an illegal one would raise


SMALL = {"lin": {"board_size": 5, "line_length": 3}, "linage": {"board_size": 5},
         "lifeline": {"board_size": 3}, "asli": {"board_size": 5}}


@pytest.mark.parametrize("name", sorted(SMALL))
def test_torchrl_wrapper_passes_its_spec_check_and_rolls_out(name):
    pytest.importorskip("torchrl")
    from torchrl.envs.utils import check_env_specs
    import torchrl_rollout as example  # examples/torchrl_rollout.py
    env = example.wrapped(name, **SMALL[name])
    check_env_specs(env)
    rollout = env.rollout(40, break_when_any_done=False)
    assert rollout.batch_size[0] == 40
    group = next(iter(env.group_map))
    masks = rollout[group, "action_mask"]
    actions = rollout[group, "action"]
    # TorchRL's random actions respect the mask: the env would raise otherwise; and the masks are ours
    assert masks.any(-1).any()
    assert actions.shape[0] == 40


@pytest.mark.parametrize("name", sorted(SMALL))
def test_tianshou_masked_dqn_trains_an_epoch(name):
    pytest.importorskip("tianshou")
    import tianshou_dqn as example  # examples/tianshou_dqn.py
    # the AEC env raises on an illegal action: an epoch of collection proves the masks are kept
    result, learner = example.train(name, epochs=1, epoch_steps=200, envs=2, **SMALL[name])
    assert result.train_step >= 200 and result.update_step > 0


def test_supersuit_observation_lambda_on_the_observation_key():
    """The README's recipe: SuperSuit's wrappers refuse a Dict space unless told how to map it."""
    ss = pytest.importorskip("supersuit")
    import numpy as np
    from gymnasium import spaces
    from pettingzoo.test import api_test

    import territory_envs

    def observation(obs, space):
        return {"observation": obs["observation"].astype(np.float32), "action_mask": obs["action_mask"]}

    def space(old):
        planes = old["observation"]
        return spaces.Dict({"observation": spaces.Box(planes.low.astype(np.float32), planes.high.astype(np.float32),
                                                      dtype=np.float32), "action_mask": old["action_mask"]})

    env = ss.observation_lambda_v0(territory_envs.make("asli", board_size=5), observation, space)
    api_test(env, num_cycles=30)
    env.reset(seed=0)
    assert env.observe("player_0")["observation"].dtype == np.float32
