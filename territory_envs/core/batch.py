"""Bookkeeping shared by the four games' batched kernels (``territory_envs.vector``): after one
action of game ``e``, its rewards, end flags and move count, the same for every game."""
from __future__ import annotations

from numba import njit


@njit(cache=True)
def after_action(e, ended_by_rules, winner_side, flip, move_number, max_moves, mask, rewards, terminated,
                 truncated):
    """Count the move; set ``terminated``/``truncated`` (the ``max_moves`` bound, as the AEC env);
    at a rules end, empty the mask and give +1/-1 to the agents (``winner_side`` -1 for a draw).
    Returns whether the game is over (the caller then records it and starts a new one)."""
    move_number[e] += 1
    rewards[e, 0] = 0.0
    rewards[e, 1] = 0.0
    terminated[e] = ended_by_rules
    truncated[e] = not ended_by_rules and move_number[e] >= max_moves
    if ended_by_rules:
        mask[e, :] = 0
        if winner_side >= 0:
            winner = winner_side ^ flip
            rewards[e, winner] = 1.0
            rewards[e, 1 - winner] = -1.0
    return terminated[e] or truncated[e]
