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
