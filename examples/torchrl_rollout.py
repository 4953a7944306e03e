"""TorchRL: any game through ``PettingZooWrapper`` with action masks, checked and rolled out.

    pip install -e ".[torchrl]"
    python examples/torchrl_rollout.py lifeline

Random actions that respect the mask are TorchRL's own (``env.rand_action`` with ``use_mask``);
infos arrive as tensors because every info value is a number with one key set all game long.
"""
import sys

from torchrl.envs.libs.pettingzoo import PettingZooWrapper
from torchrl.envs.utils import check_env_specs

import territory_envs


def wrapped(name: str, **options) -> PettingZooWrapper:
    return PettingZooWrapper(territory_envs.make(name, **options), use_mask=True, categorical_actions=True)


if __name__ == "__main__":
    name = sys.argv[1] if len(sys.argv) > 1 else "lin"
    env = wrapped(name)
    check_env_specs(env)
    print(env.rollout(50))
