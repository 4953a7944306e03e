"""SuperSuit: map the planes of any env's Dict observation in one line, the action mask kept.

::

    import territory_envs
    from territory_envs.supersuit import observation_planes_v0

    env = observation_planes_v0(territory_envs.make("asli"))                    # float32 planes
    env = observation_planes_v0(territory_envs.make("lin"), lambda planes: planes.transpose(2, 0, 1))

SuperSuit's wrappers refuse a ``Dict`` observation space unless ``observation_lambda_v0`` is told
how to map it and its space; this does that for the ``observation`` key. The planes are cast to
``dtype`` (float32 by default) before ``fn`` sees them, because the envs' int8 planes overflow in
int8 arithmetic; the new space's bounds and shape are found by mapping the old bounds, unless
``fn`` changes values in a way its bounds do not show, when ``low`` and ``high`` say what they are.
"""
from __future__ import annotations

import numpy as np

try:
    import supersuit
except ImportError as err:  # pragma: no cover - exercised where supersuit is missing
    raise ImportError("territory_envs.supersuit needs SuperSuit: pip install supersuit") from err


def observation_planes_v0(env, fn=None, dtype=np.float32, low=None, high=None):
    """``env`` (AEC or parallel) with ``fn(planes)`` applied to the ``observation`` key of every
    observation, after a cast to ``dtype``; ``action_mask`` passes as it is."""
    from gymnasium import spaces
    dtype = np.dtype(dtype)

    def planes_of(planes):
        planes = np.asarray(planes, dtype=dtype)
        return planes if fn is None else np.asarray(fn(planes), dtype=dtype)

    def observation(obs, space):
        return {**obs, "observation": planes_of(obs["observation"])}

    def observation_space(space):
        old = space["observation"]
        new_low = planes_of(old.low) if low is None else np.broadcast_to(np.asarray(low, dtype), planes_of(old.low).shape)
        new_high = planes_of(old.high) if high is None else np.broadcast_to(np.asarray(high, dtype), new_low.shape)
        if new_low.shape != planes_of(old.high).shape:
            raise ValueError(f"fn: maps the planes' low and high bounds to different shapes "
                             f"{new_low.shape} and {planes_of(old.high).shape}")
        return spaces.Dict({**space.spaces, "observation": spaces.Box(np.minimum(new_low, new_high),
                                                                      np.maximum(new_low, new_high), dtype=dtype)})

    return supersuit.observation_lambda_v0(env, observation, observation_space)
