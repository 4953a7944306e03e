"""Agents that play the territory games. For now the yardstick every comparison starts from:
:class:`RandomAgent`. Any callable ``(observation, action_mask) -> action`` also works as an agent."""
from __future__ import annotations

import numpy as np


class RandomAgent:
    """Uniform among the legal actions of the AEC observation's mask; seeded."""

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def __call__(self, observation, action_mask=None) -> int:
        mask = observation["action_mask"] if action_mask is None else action_mask
        legal = np.flatnonzero(mask)
        if len(legal) == 0:
            raise ValueError("RandomAgent: no legal action in the mask")
        return int(legal[self.rng.integers(len(legal))])
