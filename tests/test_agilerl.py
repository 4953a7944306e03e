"""AgileRL: its DQN learns both seats in self-play on the compiled vector env (examples/agilerl_dqn.py).

AgileRL pins PettingZoo 1.26 and TensorDict 0.13, so this runs in an environment of its own:
`.ci/run` makes one (`pip install -e ".[agilerl]"`) and runs this file there; elsewhere it is skipped."""
import sys
from pathlib import Path

import pytest

pytest.importorskip("agilerl")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))

# an illegal action ends a game with an IllegalActionWarning: here it is an error, so a run that
# finishes proves the DQN and its self-play opponent kept the masks
pytestmark = pytest.mark.filterwarnings("error::territory_envs.core.game.IllegalActionWarning")

SMALL = {"lin": {"board_size": 5, "line_length": 3}, "linage": {"board_size": 5},
         "lifeline": {"board_size": 3}, "asli": {"board_size": 5}}


@pytest.fixture(autouse=True)
def one_thread():
    import torch
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


@pytest.mark.parametrize("name", sorted(SMALL))
def test_agilerl_dqn_self_play_trains_on_every_game(name):
    import agilerl_dqn as example
    from territory_envs.single import mean_return
    dqn = example.train(name, steps=1600, envs=8, **SMALL[name])
    assert -1.0 <= mean_return(example.greedy_policy(dqn), name, 10, **SMALL[name]) <= 1.0


def test_agilerl_dqn_self_play_beats_random_on_lin():
    """20,000 moves of self-play on Lin 5x5 lift the greedy policy above a random one (whose mean
    return is about 0 with the seats alternating)."""
    import agilerl_dqn as example
    from territory_envs.single import mean_return
    dqn = example.train("lin", steps=20_000, epsilon_steps=5_000, **SMALL["lin"])
    assert mean_return(example.greedy_policy(dqn), "lin", 200, **SMALL["lin"]) > 0.15
