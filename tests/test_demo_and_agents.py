import numpy as np
import pytest

from agents import RandomAgent
from territory_envs import demo, lin_v0


def test_demo_plays_a_full_game(capsys):
    assert demo.main(["--board-size", "7", "--line-length", "5", "--speed-games", "3"]) == 0
    out = capsys.readouterr().out
    assert "final position" in out and "wins" in out and "steps/s" in out


def test_random_agent_is_seeded_and_legal():
    env = lin_v0.env(board_size=7, line_length=5)
    env.reset(seed=0)
    a, b = RandomAgent(seed=3), RandomAgent(seed=3)
    obs = env.observe(env.agent_selection)
    picks = [a(obs) for _ in range(20)]
    assert picks == [b(obs) for _ in range(20)]
    assert all(obs["action_mask"][p] == 1 for p in picks)
    assert a(obs, np.eye(49, dtype=np.int8)[5]) == 5
    with pytest.raises(ValueError):
        a(obs, np.zeros(49, np.int8))


def test_importing_the_package_does_not_import_torch():
    import subprocess
    import sys
    code = "import sys, territory_envs, territory_envs.lin_v0, territory_envs.asli_v0; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
