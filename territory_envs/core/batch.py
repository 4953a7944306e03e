"""The generic kernels, written once for every game and compiled per game from its
:class:`~territory_envs.core.compiled.CompiledGame`: the batch step of ``territory_envs.vector``
(:func:`batch_step`, which also starts games anew: the batch's reset) and the random playouts of
``GameState.rollout`` (:func:`playout`); with their bookkeeping (after one action of game ``e``,
its rewards, end flags and move count; games that sit a step out; whose view a finished game's
last observation takes) and the compiled draw of random legal actions
(``VectorEnv.sample_actions``)."""
from __future__ import annotations

import numpy as np
from numba import prange

from . import compiled
from .compiled import copy_game, game_at
from .fields import FLIP, TERMINAL, TO_MOVE, WINNER, head_flip, head_over, head_side, head_winner
from .jit import kernel
from .kernels import random_set_index, winner_player


@kernel(inline="always")  # (inlined: a prange body and a plain loop type the index differently)
def after_action(e, ended_by_rules, winner_side, flip, move_number, max_moves, mask, rewards, terminated,
                 truncated):
    """Count the move; set ``terminated``/``truncated`` (the ``max_moves`` bound, as the AEC env);
    at a rules end, empty the game's mask (``mask``: its row) and give +1/-1 to the agents
    (``winner_side`` -1 for a draw).
    Returns whether the game is over (the caller then records it and starts a new one)."""
    move_number[e] += 1
    rewards[e, 0] = 0.0
    rewards[e, 1] = 0.0
    terminated[e] = ended_by_rules
    truncated[e] = not ended_by_rules and move_number[e] >= max_moves
    if ended_by_rules:
        mask[:] = 0
        if winner_side >= 0:
            winner = winner_side ^ flip
            rewards[e, winner] = 1.0
            rewards[e, 1 - winner] = -1.0
    return terminated[e] or truncated[e]


SIT_OUT = -1  # the action of a game that sits a step out (batch_step)
NEW_GAME = -2  # the action of a game that starts anew (batch_step; the batch's reset)


@kernel(inline="always")  # (inlined: a prange body and a plain loop type the index differently)
def report_nothing(e, rewards, terminated, truncated):
    """Game ``e`` played no action this step: no reward, no end."""
    rewards[e, 0] = 0.0
    rewards[e, 1] = 0.0
    terminated[e] = False
    truncated[e] = False


@kernel
def final_viewer(player, to_move, flip):
    """The side whose view a finished game's last observation takes: that of agent ``player``, or
    the side that would move where ``player`` is -1."""
    return to_move if player < 0 else player ^ flip


# --- the batch: one action in every game -----------------------------------------------------------
@kernel(parallel=True)
def batch_step(game, actions, arrays, params, move_number, max_moves, obs, rewards, terminated, truncated, final_obs,
               final_scores, final_view):
    """One action in every game of the batch, in parallel. ``arrays`` holds the batch's arrays, one
    row per game, in the order of one game's tuple (``compiled`` module docstring); the arrays from
    ``obs`` on are the env's ``outputs``, in that order (one by one: read from a tuple, they cost the
    cheapest step, Lin's, 3%). A game that ends records its last observation (of player
    ``final_view[e]``, or of the side that would move where that is -1) and its scores, and starts
    again; ``obs`` then holds the new game's first observation. A game whose action is
    ``SIT_OUT`` (a subset of the batch steps, e.g. the opponent's moves in
    ``territory_envs.single_vector``) reports no reward and no end, and nothing of it changes; one
    whose action is ``NEW_GAME`` starts anew and reports no reward and no end (all of them: the
    batch's reset, one kernel with the step, so that first use compiles the game's code into one
    parallel kernel, not two)."""
    for e in prange(actions.shape[0]):
        action = actions[e]
        if action < 0:
            report_nothing(e, rewards, terminated, truncated)
            if action == SIT_OUT:
                continue
        g = game_at(arrays, e)
        if action == NEW_GAME:
            move_number[e] = 0
            side = head_side(game.new_game(g, params))
        else:
            head = game.act(g, action, params)
            side = head_side(head)
            if after_action(e, head_over(head), head_winner(head), head_flip(head), move_number, max_moves, g[1],
                            rewards, terminated, truncated):
                first, second = game.final_scores(g, params)
                final_scores[e, 0] = first
                final_scores[e, 1] = second
                game.observe(g, final_viewer(final_view[e], side, head_flip(head)), params, final_obs[e])
                move_number[e] = 0
                side = head_side(game.new_game(g, params))
        game.observe_mover(g, side, params, obs[e])


# --- random playouts (GameState.rollout, the playouts of agents.mcts) --------------------------------
@kernel
def playout(game, g, params, moves_left, uniform, seed, trace):
    """Random legal actions from the position ``g`` (copied, not changed) to the end, at most
    ``moves_left``, chosen by the game's ``playout_action``. Returns ``(winner player or -1 for a
    draw or the bound, actions played)``: a player, not a side, as a swap moves the sides between
    the players. The first actions and the players who played them go into ``trace`` (2, L) as far
    as it reaches. A side to move without a legal action loses."""
    np.random.seed(seed)
    g = copy_game(g)
    s = g[2]
    scratch = game.playout_scratch(g, params, moves_left)
    for move in range(moves_left):
        player = s[TO_MOVE] ^ s[FLIP]
        action, played = game.playout_action(g, params, scratch, uniform)
        if action < 0:
            return winner_player(1 - s[TO_MOVE], s[FLIP]), move
        if move < trace.shape[1]:
            trace[0, move] = action
            trace[1, move] = player
        if not played:
            game.act(g, action, params)
        if s[TERMINAL]:
            return winner_player(s[WINNER], s[FLIP]), move + 1
    return -1, moves_left


_NO_SCRATCH = np.zeros(0, dtype=np.int32)


@kernel
def no_scratch(g, params, moves_left):
    """The default ``playout_scratch``: none."""
    return _NO_SCRATCH


@kernel
def uniform_action(g, params, scratch, uniform):
    """The default ``playout_action``: uniform over the legal actions (``g[1]`` is the mask)."""
    mask = g[1]
    return random_set_index(mask, mask.shape[0]), False


compiled._DEFAULTS.update(playout_action=uniform_action, playout_scratch=no_scratch)


# splitmix64 (Steele, Lea and Flood 2014): one 64-bit word of state per game, so each game draws
# its own stream and the draws do not depend on how games are spread over threads
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


@kernel(inline="always")  # (inlined: a prange body and a plain loop type the index differently)
def next_random(streams, e):
    """Advance game ``e``'s stream and return 64 random bits."""
    z = streams[e] + _GOLDEN
    streams[e] = z
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@kernel(parallel=True)
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


@kernel  # one test per game: starting threads would cost more than the work
def illegal_actions(mask, actions, bad, skip):
    """``bad[e]``: ``actions[e]`` is out of range or masked out in ``mask[e]`` (-1 allowed with
    ``skip``: the game sits the step out). Returns how many."""
    count = 0
    for e in range(actions.shape[0]):
        a = actions[e]
        bad[e] = not ((0 <= a < mask.shape[1] and mask[e, a] != 0) or (skip and a == -1))
        count += bad[e]
    return count
