"""The agent interface shared by the baselines, the arena, the play CLI and (later) network agents.

An agent picks an action for the player to act. It can be asked in two ways:

* ``agent.act(state)`` with a game state of the docs/spec.md state API (``env.unwrapped.game_state`` of any
  env, or ``make_game(...).new_state()``); search agents need this form;
* ``agent(observation, action_mask=None)`` with an AEC observation, as PettingZoo users call a
  policy; agents that need the whole state (MCTS) refuse this form with a ``TypeError``.

``reset(seed)`` starts a new game (and reseeds when a seed is given). Any callable
``(observation, action_mask) -> action`` becomes an agent through :func:`as_agent`.
"""
from __future__ import annotations

import numbers
from abc import ABC, abstractmethod

import numpy as np

from territory_envs.core.game import IllegalActionError, as_action
from territory_envs.core.options import excerpt


def check_seed(where: str, seed) -> int | None:
    """``None`` or an integer ``>= 0`` (not ``bool``), as the envs' ``reset(seed=...)`` take it;
    else ``ValueError`` naming ``where`` and the seed."""
    if seed is None:
        return None
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise ValueError(f"{where}: seed={excerpt(seed)}: must be None or an integer >= 0")
    return int(seed)


class Agent(ABC):
    """Base class: subclasses implement :meth:`act` (and may override ``__call__``)."""

    name = "agent"
    needs_state = True  # False when the AEC observation is enough

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(check_seed(type(self).__name__, seed))

    def reset(self, seed: int | None = None) -> None:
        seed = check_seed(f"{self.name}: reset", seed)
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    @abstractmethod
    def act(self, state) -> int:
        """The action for the player to act in ``state``."""

    def __call__(self, observation, action_mask=None) -> int:
        raise TypeError(f"{self.name} needs the game state: call agent.act(env.unwrapped.game_state)")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


def pick_uniform(rng: np.random.Generator, mask) -> int:
    legal = np.flatnonzero(mask)
    if len(legal) == 0:
        raise ValueError("no legal action in the mask")
    return int(legal[rng.integers(len(legal))])


class RandomAgent(Agent):
    """Uniform among the legal actions; seeded."""

    name = "random"
    needs_state = False

    def act(self, state) -> int:
        return pick_uniform(self.rng, state.legal_mask())

    def __call__(self, observation, action_mask=None) -> int:
        return pick_uniform(self.rng, observation["action_mask"] if action_mask is None else action_mask)


class CallableAgent(Agent):
    """Wraps a policy ``f(observation, action_mask) -> action``; ``act(state)`` builds the AEC
    observation of the player to act from the state. The policy's action must be an integer in
    range, as ``GameState.apply`` takes it (floats such as ``3.0`` are refused, not truncated): else
    :class:`~territory_envs.IllegalActionError` naming the policy."""

    needs_state = False

    def __init__(self, policy, name: str | None = None):
        super().__init__(None)
        self.policy = policy
        self.name = name or getattr(policy, "__name__", "callable")

    def reset(self, seed: int | None = None) -> None:
        seed = check_seed(f"{self.name}: reset", seed)
        reset = getattr(self.policy, "reset", None)
        if callable(reset):
            reset(seed) if seed is not None else reset()

    def act(self, state) -> int:
        observation = {"observation": state.observation(state.current_player),
                       "action_mask": state.legal_mask()}
        return self._action(self.policy(observation, observation["action_mask"]), state.game.num_actions)

    def __call__(self, observation, action_mask=None) -> int:
        mask = observation["action_mask"] if action_mask is None else action_mask
        return self._action(self.policy(observation, mask), len(mask))

    def _action(self, action, num_actions: int) -> int:
        try:
            return as_action(action, num_actions)
        except IllegalActionError as err:
            raise IllegalActionError(f"policy {excerpt(self.name)}: {err}") from None


def as_agent(policy) -> Agent:
    """An :class:`Agent` as is; a callable ``(observation, action_mask) -> action`` wrapped."""
    if isinstance(policy, Agent):
        return policy
    if callable(policy):
        return CallableAgent(policy)
    raise TypeError(f"not an agent: {excerpt(policy)} (expected an Agent or a callable "
                    f"(observation, mask) -> action)")
