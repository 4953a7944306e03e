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


def test_torchrl_ppo_learns_both_seats_and_beats_random_on_lin():
    """examples/torchrl_ppo.py: three batches of self-play on Lin 5x5 lift the policy well above a
    random one's mean return (about 0 with the seats alternating)."""
    pytest.importorskip("torchrl")
    import torch
    import torchrl_ppo as example
    from territory_envs.single import mean_return
    torch.set_num_threads(1)
    logits_net = example.train("lin", batches=3, **SMALL["lin"])
    assert mean_return(example.greedy_policy(logits_net), "lin", 100, **SMALL["lin"]) > 0.4


@pytest.mark.parametrize("name", sorted(SMALL))
def test_torchrl_ppo_trains_on_every_game(name):
    pytest.importorskip("torchrl")
    import torch
    import torchrl_ppo as example
    from territory_envs.single import mean_return
    torch.set_num_threads(1)
    logits_net = example.train(name, batches=1, frames_per_batch=256, envs=2, **SMALL[name])
    assert -1.0 <= mean_return(example.greedy_policy(logits_net), name, 10, **SMALL[name]) <= 1.0


@pytest.mark.parametrize("name", sorted(SMALL))
def test_tianshou_ppo_self_play_trains_an_epoch(name):
    """examples/tianshou_ppo.py: the stock PPO with territory_envs.tianshou's masked actor and
    critic, its opponent the actor itself; the test episodes are against random."""
    pytest.importorskip("tianshou")
    import tianshou_ppo as example
    result, _, returns = example.train(name, epochs=1, epoch_steps=512, envs=2, test_episodes=4, **SMALL[name])
    assert result.train_step >= 512 and result.update_step > 0
    assert len(returns) >= 1 and all(-1.0 <= r <= 1.0 for r in returns)


def test_tianshou_masked_actor_never_picks_an_illegal_action():
    pytest.importorskip("tianshou")
    import numpy as np
    import torch
    from tianshou.data import Batch
    from tianshou.utils.net.common import Net
    from tianshou.utils.net.discrete import DiscreteActor
    from territory_envs.tianshou import MaskedActor, masked_categorical, self_play_opponent
    torch.manual_seed(0)
    actor = MaskedActor(DiscreteActor(preprocess_net=Net(state_shape=(4,), hidden_sizes=[8]), action_shape=6,
                                      softmax_output=False))
    mask = np.array([[0, 1, 0, 0, 1, 0], [1, 0, 0, 0, 0, 0]], dtype=np.int8)
    logits, _ = actor(Batch(observation=np.random.randn(2, 4).astype(np.float32), action_mask=mask))
    distribution = masked_categorical(logits)
    samples = distribution.sample((500,))
    assert set(samples[:, 0].tolist()) == {1, 4} and set(samples[:, 1].tolist()) == {0}
    assert torch.isfinite(distribution.entropy()).all()  # -inf logits would give nan here
    opponent = self_play_opponent(actor, seed=0)
    picks = {opponent({"observation": np.zeros(4, np.int8)}, mask[0]) for _ in range(100)}
    assert picks == {1, 4}
    assert self_play_opponent(actor, greedy=True)({"observation": np.zeros(4, np.int8)}, mask[1]) == 0


@pytest.mark.parametrize("name", sorted(SMALL))
def test_supersuit_observation_planes_in_one_line(name):
    """territory_envs.supersuit: SuperSuit's observation_lambda_v0 on the planes, the mask kept;
    PettingZoo's API test passes on the wrapped AEC and parallel envs."""
    pytest.importorskip("supersuit")
    import numpy as np
    from pettingzoo.test import api_test, parallel_api_test

    import territory_envs
    from territory_envs.supersuit import observation_planes_v0

    env = observation_planes_v0(territory_envs.make(name, **SMALL[name]))
    api_test(env, num_cycles=30)
    env.reset(seed=0)
    planes = env.observe("player_0")["observation"]
    assert planes.dtype == np.float32 and env.observation_space("player_0")["observation"].dtype == np.float32

    channels_first = observation_planes_v0(territory_envs.make(name, **SMALL[name]), lambda p: p.transpose(2, 0, 1))
    channels_first.reset(seed=0)
    first = channels_first.observe("player_0")
    assert first["observation"].shape == planes.transpose(2, 0, 1).shape
    assert channels_first.observation_space("player_0")["observation"].contains(first["observation"])
    np.testing.assert_array_equal(first["action_mask"], env.observe("player_0")["action_mask"])
    parallel_api_test(observation_planes_v0(territory_envs.make_parallel(name, **SMALL[name])), num_cycles=30)
