"""Many Asli games at once: the batched step and reset of ``territory_envs.vector``, and the
compiled random playouts of ``agents.mcts`` (:func:`asli_rollout`)."""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from ...core.batch import after_action, final_viewer, record_action, skip_game
from ...core.kernels import EMPTY, hash_insert, random_set_index, region_colours, winner_player
from .rules import place_and_capture
from .structure import MEMO_VALID
from .turn import (FIRST_BLACK, FLIP, LAST_MINIMAL, PRISON_BLACK, ROLLOUT_TESTS, SEEN_COUNT, TERMINAL, TO_MOVE, WINNER,
                   act, close_turn, compute_mask, new_game, observe)

# --- batched play (territory_envs.vector) -------------------------------------------------------
@njit(cache=True, parallel=True)
def asli_batch_step(actions, board, mask, owner, danger, scalars, seen, memo, move_number, komi, points, max_moves,
                    keys, side_key, on_board, neighbours, degree, outputs):
    """One action in every game of the batch, in parallel; finished games record their last
    observation, then start again (Asli has no score: ``final_scores`` stays 0). Every table in
    ``seen`` must keep a free slot (the caller grows them). ``final_view`` and an action of -1
    as in ``lin_batch_step``; ``outputs`` the env's ``(obs, rewards, terminated, truncated, final_obs,
    final_scores, final_view)``."""
    obs, rewards, terminated, truncated, final_obs, final_scores, final_view = outputs
    for e in prange(actions.shape[0]):
        if skip_game(e, actions, rewards, terminated, truncated):
            continue
        s = scalars[e]
        act(board[e], mask[e], owner[e], danger[e], s, seen[e], memo[e], actions[e], keys, side_key, on_board,
            neighbours, degree)
        if after_action(e, s[TERMINAL] == 1, s[WINNER], s[FLIP], move_number, max_moves, mask, rewards,
                        terminated, truncated):
            final_scores[e, 0] = 0.0
            final_scores[e, 1] = 0.0
            observe(board[e], mask[e], owner[e], danger[e], s, final_viewer(final_view[e], s[TO_MOVE], s[FLIP]), points,
                    final_obs[e])
            move_number[e] = 0
            new_game(board[e], mask[e], owner[e], danger[e], s, seen[e], memo[e], komi, keys, side_key, on_board,
                     neighbours, degree)
        observe(board[e], mask[e], owner[e], danger[e], s, s[TO_MOVE], points, obs[e])


@njit(cache=True, parallel=True)
def asli_batch_reset(board, mask, owner, danger, scalars, seen, memo, move_number, komi, points, keys, side_key,
                     on_board, neighbours, degree, obs):
    for e in prange(board.shape[0]):
        move_number[e] = 0
        new_game(board[e], mask[e], owner[e], danger[e], scalars[e], seen[e], memo[e], komi, keys, side_key, on_board,
                 neighbours, degree)
        observe(board[e], mask[e], owner[e], danger[e], scalars[e], 0, points, obs[e])


# --- random playouts (agents.mcts) ----------------------------------------------------------------
@njit(cache=True, inline='always')
def test_candidates(board, trial, s, candidates, flood_seen, flood_queue, on_board, neighbours, degree):
    """A playout's single-stone turn without the mask: test the candidates (the empty points and
    the removal) one by one in a random order, drawn lazily, and take the first legal one (uniform
    over the legal actions), at most ``ROLLOUT_TESTS`` of them. Returns ``(chosen, stones,
    minimal, exhausted)``: the action (-1 when the tests ran out first), the stones it captures
    (the position after it in ``trial``), whether it is a minimal incursion, and whether every
    candidate was tried and failed (no legal action)."""
    n = board.shape[0]
    side = s[TO_MOVE]
    ban = s[LAST_MINIMAL] == 1
    count = 0
    own = 0
    for i in range(n):
        if board[i] == EMPTY:
            candidates[count] = i
            count += 1
        own += board[i] == side + 1
    if own == 0:  # a stone would be a lone group, dead whatever it captures: no placement
        count = 0
    if s[PRISON_BLACK + 1 - side] > 0:
        candidates[count] = n  # the prison removal, always legal when available
        count += 1
    tested = 0
    while tested < count and tested < ROLLOUT_TESTS:
        j = tested + np.random.randint(count - tested)
        r = candidates[j]
        candidates[j] = candidates[tested]
        candidates[tested] = r
        tested += 1
        if r == n:
            return n, 0, False, False
        trial[:] = board
        groups, stones, alive = place_and_capture(trial, side, r, on_board, neighbours, degree)
        # minimal incursion: one group captured by a stone in enemy territory (judged before it);
        # region_colours as in rules.is_incursion, with scratch kept for the whole playout
        minimal = groups == 1 and region_colours(board, r, neighbours, degree, flood_seen, flood_queue) == 2 - side
        if alive and not (ban and minimal):
            return r, stones, minimal, False
    return -1, 0, False, tested == count


@njit(cache=True)
def asli_rollout(board, mask, owner, danger, s, seen, memo, moves_left, keys, side_key, on_board, neighbours, degree,
                 seed, trace):
    """Uniformly random legal actions (prison removals included) from this position (copied, not
    changed) to the end, at most ``moves_left``; repetitions draw as in the game. Returns
    ``(winner player or -1, actions)``.

    Single-stone turns skip the whole mask: test the candidates (the empty points and the
    removal) one by one in a random order and play the first legal one, which is uniform over the
    legal actions. After ``ROLLOUT_TESTS`` illegal candidates the exact mask decides (uniform
    as well); a side whose every candidate failed has no legal action and loses. A side whose
    last mask showed under a quarter of its candidates legal asks the mask directly until a mask
    shows more. Double first turns go through ``act`` and the exact mask."""
    np.random.seed(seed)
    board = board.copy()
    mask = mask.copy()
    owner = owner.copy()
    danger = danger.copy()
    memo = memo.copy()
    s = s.copy()
    n = board.shape[0]
    size = 64
    while size < 2 * (s[SEEN_COUNT] + moves_left + 2):
        size *= 2
    table = np.zeros(size, dtype=np.uint64)  # room for every position of the playout
    for h in seen:
        if h != 0:
            hash_insert(table, h)
    trial = np.empty_like(board)
    flood_seen = np.zeros(n, dtype=np.bool_)
    flood_queue = np.empty(n, dtype=np.int32)
    candidates = np.empty(n + 1, dtype=np.int32)
    mask_first = np.zeros(2, dtype=np.bool_)  # per side: skip the candidate tests, ask the mask
    mask_fresh = True  # ``mask`` belongs to the current position
    for move in range(moves_left):
        side = s[TO_MOVE]
        chosen = -1
        stones = 0
        minimal = False
        if s[FIRST_BLACK + side] == 1 and not mask_first[side]:
            chosen, stones, minimal, exhausted = test_candidates(board, trial, s, candidates, flood_seen, flood_queue,
                                                                 on_board, neighbours, degree)
            if exhausted:  # every candidate tried: no legal action, a loss
                return winner_player(1 - side, s[FLIP]), move
        if chosen >= 0:
            record_action(trace, move, chosen, s)
            placement = chosen < n
            if placement:
                board[:] = trial
                memo[MEMO_VALID] = 0  # (labelled again when next needed)
                s[PRISON_BLACK + 1 - side] += stones
            else:
                minimal = False
                s[PRISON_BLACK + 1 - side] -= 1
            mask_fresh = False
            if close_turn(board, s, table, side, minimal, placement, keys, side_key):
                return -1, move + 1  # the position recurs: a draw
            continue
        if not mask_fresh:
            compute_mask(board, mask, owner, danger, s, memo, on_board, neighbours, degree)
        if s[FIRST_BLACK + side] == 1:
            # few legal actions among many candidates (a side pinned to its prison removals, say):
            # go to the mask directly on this side's next turns, until the mask shows otherwise
            legal = 0
            candidates_now = mask[n]
            for i in range(n):
                legal += mask[i]
                candidates_now += board[i] == EMPTY
            mask_first[side] = 4 * legal < candidates_now
        action = random_set_index(mask, n + 1)
        if action < 0:
            return winner_player(1 - side, s[FLIP]), move  # no legal action: the side to move loses
        record_action(trace, move, action, s)
        act(board, mask, owner, danger, s, table, memo, action, keys, side_key, on_board, neighbours, degree)
        mask_fresh = True
        if s[TERMINAL]:
            return winner_player(s[WINNER], s[FLIP]), move + 1
    return -1, moves_left
