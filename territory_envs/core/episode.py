"""The episode contract of docs/spec.md, written once for every interface that plays games to an
end: the AEC env (``core/env.py``), the single-agent env (``single.py``), the batched envs
(``vector.py``, ``single_vector.py``; their compiled twin is ``core.batch.after_action``) and the
RLlib adapter (over the AEC env).

* An episode ends when the rules end the game (``terminated``, the winner +1 and the loser -1, a
  draw 0 each), or when ``max_moves`` actions have been played in a game that goes on
  (``truncated``, 0 each): :func:`outcome`.
* An illegal action ends the episode with -1 to the offender and +1 to the other, with an
  :class:`~territory_envs.core.game.IllegalActionWarning` (``illegal_action="lose"``, the default, as
  PettingZoo's classic envs do with their ``TerminateIllegalWrapper``): :func:`illegal_returns`,
  :func:`warn_illegal`. For debugging, ``illegal_action="raise"`` raises
  :class:`~territory_envs.core.game.IllegalActionError` and changes nothing. The batched envs always
  raise: a batch has no one episode to end, and a masked-out action there is a bug of the caller.
* Once the episode is over, every mask handed out is empty: :func:`visible_mask`.
* Infos hold numbers only, the same keys from the reset to the end: :func:`player_info` (the batched
  envs keep the same keys as arrays).
"""
from __future__ import annotations

import warnings

import numpy as np
from gymnasium import spaces

from .game import IllegalActionWarning
from .options import check_choice, excerpt

ILLEGAL_ACTION = ("lose", "raise")  # the first is the default
DEFAULT_ILLEGAL_ACTION = ILLEGAL_ACTION[0]
SEATS = ("alternate", "random", 0, 1)


def check_illegal_action(value) -> str:
    return check_choice("illegal_action", value, ILLEGAL_ACTION)


def check_seed(where: str, seed) -> int | None:
    """``seed`` as an ``int`` (or ``None``); anything else is a ``ValueError`` naming ``where``."""
    if seed is None:
        return None
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"{where}: seed={excerpt(seed)}: must be None or an integer >= 0")
    return int(seed)


def check_seat(seat):
    """The single-agent envs' ``seat``: ``"alternate"``, ``"random"``, 0 or 1."""
    if isinstance(seat, bool) or seat not in SEATS:
        raise ValueError(f"option seat={excerpt(seat)}: must be 'alternate', 'random', 0 or 1")
    return seat


def observation_space(game, dtype=np.int8) -> spaces.Dict:
    """``{"observation": the planes in dtype, "action_mask": int8 (A,)}`` of ``game``."""
    return spaces.Dict({
        "observation": spaces.Box(low=game.obs_low.astype(dtype), high=game.obs_high.astype(dtype), dtype=dtype),
        "action_mask": spaces.Box(low=0, high=1, shape=(game.num_actions,), dtype=np.int8),
    })


def outcome(state) -> tuple[bool, bool]:
    """``(terminated, truncated)`` of ``state`` after a step (the rules' end first)."""
    return state.terminal, state.truncated


def warn_illegal(offender: str, error: Exception) -> None:
    """The warning of an episode ended by ``offender``'s illegal action (``illegal_action="lose"``)."""
    warnings.warn(f"{offender} played an illegal action ({error}): the game ends with its loss "
                  f"(illegal_action='raise' raises instead)", IllegalActionWarning, stacklevel=3)


def illegal_returns(offender: int) -> np.ndarray:
    """The returns per player when ``offender`` ends the game by an illegal action."""
    returns = np.ones(2, dtype=np.float32)
    returns[offender] = -1.0
    return returns


def winner_of(returns) -> int:
    """The player with the higher return, -1 on equal returns (a draw, a truncation)."""
    return int(np.argmax(returns)) if returns[0] != returns[1] else -1


def scores_by_player(state) -> tuple[float, float]:
    """Each player's score (komi included), ``(0.0, 0.0)`` for games without points."""
    scores = state.scores()
    return (0.0, 0.0) if scores is None else tuple(float(scores[state.side_of(p)]) for p in range(2))


def visible_mask(state, player: int, over: bool) -> np.ndarray:
    """A copy of the mask ``player`` is shown: the legal actions while it moves in an episode that
    goes on, else all zeros."""
    if not over and state.current_player == player:
        return state.mask.copy()
    return np.zeros(state.game.num_actions, dtype=np.int8)


def player_info(state, player: int, winner: int, score: float, facts: dict, **interface_keys) -> dict:
    """``player``'s info: ``side`` (0 the first side, 1 the second), ``winner`` (as the interface
    counts it, -1 while the game goes on and for a draw or a truncation), ``score`` (this player's
    once the game is over, else 0.0), the interface's own keys, then the game's facts
    (``state.info()``, passed in so that one call serves both players)."""
    return {"side": state.side_of(player), "winner": winner, "score": score, **interface_keys, **facts}
