"""Bookkeeping shared by the four games' batched kernels (``territory_envs.vector``): after one
action of game ``e``, its rewards, end flags and move count, the same for every game; games that
sit a step out; whose view a finished game's last observation takes; the trace of a random
playout; and the compiled draw of random legal actions (``VectorEnv.sample_actions``)."""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from .fields import FLIP, TO_MOVE


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


@njit(cache=True)
def skip_game(e, actions, rewards, terminated, truncated):
    """Whether game ``e`` sits this step out (its action is -1: a subset of the batch steps, e.g.
    the opponent's moves in ``territory_envs.single_vector``); it then reports no reward and no end."""
    if actions[e] >= 0:
        return False
    rewards[e, 0] = 0.0
    rewards[e, 1] = 0.0
    terminated[e] = False
    truncated[e] = False
    return True


@njit(cache=True)
def final_viewer(player, to_move, flip):
    """The side whose view a finished game's last observation takes: that of agent ``player``, or
    the side that would move where ``player`` is -1."""
    return to_move if player < 0 else player ^ flip


@njit(cache=True, inline='always')
def record_action(trace, move, action, s):
    """A playout's ``move``-th action and the player who plays it (row ``s`` before the action)
    into ``trace`` (2, L), while it has room."""
    if move < trace.shape[1]:
        trace[0, move] = action
        trace[1, move] = s[TO_MOVE] ^ s[FLIP]


# splitmix64 (Steele, Lea and Flood 2014): one 64-bit word of state per game, so each game draws
# its own stream and the draws do not depend on how games are spread over threads
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


@njit(cache=True)
def next_random(streams, e):
    """Advance game ``e``'s stream and return 64 random bits."""
    z = streams[e] + _GOLDEN
    streams[e] = z
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, parallel=True)
def sample_legal(mask, streams, out):
    """``out[e]``: an action drawn uniformly among the set entries of ``mask[e]`` (-1 if none),
    from game ``e``'s stream. The index is ``floor(u * count)`` for 32 random bits ``u``, so the
    bias is at most ``count / 2**32``."""
    for e in prange(mask.shape[0]):
        count = 0
        for a in range(mask.shape[1]):
            count += mask[e, a] != 0
        out[e] = -1
        if count == 0:
            continue
        rank = np.int64(((next_random(streams, e) >> np.uint64(32)) * np.uint64(count)) >> np.uint64(32))
        for a in range(mask.shape[1]):
            rank -= mask[e, a] != 0
            if rank < 0:
                out[e] = a
                break


@njit(cache=True)  # one test per game: starting threads would cost more than the work
def illegal_actions(mask, actions, bad, skip):
    """``bad[e]``: ``actions[e]`` is out of range or masked out in ``mask[e]`` (-1 allowed with
    ``skip``: the game sits the step out). Returns how many."""
    count = 0
    for e in range(actions.shape[0]):
        a = actions[e]
        bad[e] = not ((0 <= a < mask.shape[1] and mask[e, a] != 0) or (skip and a == -1))
        count += bad[e]
    return count
