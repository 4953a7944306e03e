"""The replay buffer: the latest ``capacity`` training positions, in preallocated numpy arrays.

Batches are drawn uniformly and moved by a random board symmetry of the game
(:mod:`territory_envs.core.symmetry`), each position its own, so that one recorded position trains
the network on all its images.
"""
from __future__ import annotations

import numpy as np

from territory_envs.core.symmetry import board_symmetries

from .selfplay import Samples

FIELDS = Samples.FIELDS


class ReplayBuffer:
    def __init__(self, game, capacity: int):
        h, w, c = game.obs_shape
        a = game.num_actions
        self.capacity = int(capacity)
        self.planes = np.zeros((capacity, h, w, c), np.int8)
        self.masks = np.zeros((capacity, a), np.int8)
        self.policies = np.zeros((capacity, a), np.float32)
        self.values = np.zeros(capacity, np.float32)
        self.owners = np.zeros((capacity, h * w), np.int8)
        self.margins = np.zeros(capacity, np.float32)
        self.size = 0
        self.next = 0  # where the next position goes
        self.added = 0  # positions ever added
        self.symmetries = board_symmetries(game)
        self.num_cells = h * w

    def __len__(self) -> int:
        return self.size

    def add(self, samples: Samples) -> None:
        n = len(samples)
        if n > self.capacity:  # keep the newest
            samples = Samples(*(getattr(samples, f)[n - self.capacity:] for f in FIELDS))
            n = self.capacity
        idx = (self.next + np.arange(n)) % self.capacity
        for f in FIELDS:
            getattr(self, f)[idx] = getattr(samples, f)
        self.next = int((self.next + n) % self.capacity)
        self.size = min(self.capacity, self.size + n)
        self.added += n

    def sample(self, batch_size: int, rng: np.random.Generator, augment: bool = True) -> Samples:
        idx = rng.integers(0, self.size, batch_size)
        planes, masks, policies, owners = self.planes[idx], self.masks[idx], self.policies[idx], self.owners[idx]
        if augment and len(self.symmetries) > 1:
            which = rng.integers(0, len(self.symmetries), batch_size)
            h, w, c = planes.shape[1:]
            n = self.num_cells
            perms = self.symmetries[which]  # (B, N): cell i goes to perms[b, i]
            rows = np.arange(batch_size)[:, None]
            moved = np.empty_like(planes.reshape(batch_size, n, c))
            moved[rows, perms] = planes.reshape(batch_size, n, c)
            planes = moved.reshape(planes.shape)
            for arr in (masks, policies, owners):
                cells = arr[:, :n].copy()
                arr[rows, perms] = cells
        return Samples(planes, masks, policies, self.values[idx].copy(), owners, self.margins[idx].copy())

    def state(self) -> dict:
        """Arrays for a checkpoint (only the filled part)."""
        return {"size": self.size, "next": self.next, "added": self.added,
                **{f: getattr(self, f)[:self.size] for f in FIELDS}}

    def load(self, data: dict) -> None:
        size = int(data["size"])
        if size > self.capacity:
            raise ValueError(f"replay buffer: {size} positions saved, more than its capacity {self.capacity}")
        for f in FIELDS:
            if f in data:  # a run saved before the auxiliary targets existed has none: zeros
                getattr(self, f)[:size] = data[f]
        self.size, self.next, self.added = size, int(data["next"]), int(data["added"])
