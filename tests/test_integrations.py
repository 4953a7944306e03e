"""Short real runs of the libraries users plug the envs into (installed by the dev extra)."""
import sys
import warnings
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))

# an env ends a game on an illegal action with an IllegalActionWarning: here the warning is an
# error, so a run that finishes proves the library kept the masks
pytestmark = pytest.mark.filterwarnings("error::territory_envs.core.game.IllegalActionWarning")


def test_sb3_maskable_ppo_trains_without_an_illegal_action():
    pytest.importorskip("sb3_contrib")
    import sb3_maskable_ppo as example  # examples/sb3_maskable_ppo.py
    model = example.train(2048, seed=0, board_size=5, line_length=3)
    assert model.num_timesteps >= 2048
    example.win_rate(model, 4, board_size=5, line_length=3)  # masked predictions: an illegal one would fail


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
    # TorchRL's random actions respect the mask (an illegal one is an error here); and the masks are ours
    assert masks.any(-1).any()
    assert actions.shape[0] == 40


@pytest.mark.parametrize("name", sorted(SMALL))
def test_torchrl_default_collector_runs_with_its_random_policy(name):
    """``Collector(make_env, policy=None)``: TorchRL's default random policy ignores the mask, and
    an illegal action ends its game with a loss (PettingZoo's convention), so collection goes on."""
    pytest.importorskip("torchrl")
    from torchrl.collectors import Collector
    import torchrl_rollout as example
    from territory_envs import IllegalActionWarning
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IllegalActionWarning)  # this test's illegal actions are TorchRL's on purpose
        collector = Collector(lambda: example.wrapped(name, **SMALL[name]), policy=None, frames_per_batch=50,
                              total_frames=100)
        batches = list(collector)
        collector.shutdown()
    assert len(batches) == 2 and all(batch.numel() == 50 for batch in batches)
    assert any(batch["next", "done"].any() for batch in batches)  # games ended and started again


@pytest.mark.parametrize("name", sorted(SMALL))
def test_tianshou_masked_dqn_trains_an_epoch(name):
    pytest.importorskip("tianshou")
    import tianshou_dqn as example  # examples/tianshou_dqn.py
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
