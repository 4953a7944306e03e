"""Asli's compiled interface: the functions the generic kernels call (``territory_envs.core.compiled``
lists them) over one game's arrays ``g = (board, mask, s, owner, danger, memo, seen)`` (``seen``
the table of positions of the repetition draw, which must keep a free slot: the batch grows it)
and the constants ``p`` (``AsliGame.params``: ``komi, points, keys, side_key, on_board, neighbours,
degree``).

The playouts skip the whole mask on single-stone turns: :func:`test_candidates` tests the
candidates (the empty points and the removal) one by one in a random order and plays the first
legal one, which is uniform over the legal actions. After ``ROLLOUT_TESTS`` illegal candidates the
exact mask decides (uniform as well); a side whose every candidate failed has no legal action and
loses. A side whose last mask showed under a quarter of its candidates legal asks the mask
directly until a mask shows more. Double first turns go through ``act`` and the exact mask."""
from __future__ import annotations

import numpy as np

from ...core.compiled import CompiledGame
from ...core.fields import head_code, may_move
from ...core.jit import kernel
from ...core.kernels import EMPTY, colour_of, hash_insert, opponent_colour, random_set_index, region_colours
from .rules import place_and_capture
from .structure import MEMO_VALID
from .turn import (FIRST_BLACK, LAST_MINIMAL, PRISON_BLACK, ROLLOUT_TESTS, SEEN_COUNT, TO_MOVE, act as act_rules,
                   close_turn, compute_mask, new_game as new_game_rules, observe as observe_side)


@kernel
def new_game(g, p):
    board, mask, s, owner, danger, memo, seen = g
    komi, _, keys, side_key, on_board, neighbours, degree = p
    new_game_rules(board, mask, owner, danger, s, seen, memo, komi, keys, side_key, on_board, neighbours, degree)
    return head_code(s)


@kernel
def act(g, action, p):
    board, mask, s, owner, danger, memo, seen = g
    _, _, keys, side_key, on_board, neighbours, degree = p
    return act_rules(board, mask, owner, danger, s, seen, memo, action, keys, side_key, on_board, neighbours, degree)


@kernel
def observe(g, viewer, p, out):
    board, mask, s, owner, danger, _, _ = g
    observe_side(board, mask, owner, danger, s, viewer, may_move(s, viewer), p[1], out)


@kernel
def observe_mover(g, side, p, out):
    board, mask, s, owner, danger, _, _ = g
    observe_side(board, mask, owner, danger, s, side, True, p[1], out)


@kernel
def final_scores(g, p):
    return 0.0, 0.0  # Asli has no score


# --- random playouts -------------------------------------------------------------------------------
@kernel
def playout_scratch(g, p, moves_left):
    """A table with room for every position of the playout (the game's own copy has room for one
    more turn only), and the candidate tests' scratch; ``flags``: per side, skip the candidate
    tests and ask the mask (0, 1), and whether ``mask`` belongs to the current position (2)."""
    board, s, seen = g[0], g[2], g[6]
    n = board.shape[0]
    size = 64
    while size < 2 * (s[SEEN_COUNT] + moves_left + 2):
        size *= 2
    table = np.zeros(size, dtype=np.uint64)
    for h in seen:
        if h != 0:
            hash_insert(table, h)
    flags = np.zeros(3, dtype=np.bool_)
    flags[2] = True
    return (table, np.empty_like(board), np.zeros(n, dtype=np.bool_), np.empty(n, dtype=np.int32),
            np.empty(n + 1, dtype=np.int32), flags)


@kernel(inline="always")
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
        own += board[i] == colour_of(side)
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
        minimal = groups == 1 and region_colours(board, r, neighbours, degree, flood_seen, flood_queue) == opponent_colour(side)
        if alive and not (ban and minimal):
            return r, stones, minimal, False
    return -1, 0, False, tested == count


@kernel
def playout_action(g, p, scratch, uniform):
    """One action of a playout (Asli's are uniform either way), played here on the playout's own
    table (the module docstring)."""
    board, mask, s, owner, danger, memo, _ = g
    _, _, keys, side_key, on_board, neighbours, degree = p
    table, trial, flood_seen, flood_queue, candidates, flags = scratch
    n = board.shape[0]
    side = s[TO_MOVE]
    if s[FIRST_BLACK + side] == 1 and not flags[side]:
        chosen, stones, minimal, exhausted = test_candidates(board, trial, s, candidates, flood_seen, flood_queue,
                                                             on_board, neighbours, degree)
        if exhausted:  # every candidate tried: no legal action, a loss
            return -1, False
        if chosen >= 0:
            placement = chosen < n
            if placement:
                board[:] = trial
                memo[MEMO_VALID] = 0  # (labelled again when next needed)
                s[PRISON_BLACK + 1 - side] += stones
            else:
                minimal = False
                s[PRISON_BLACK + 1 - side] -= 1
            flags[2] = False
            close_turn(board, s, table, side, minimal, placement, keys, side_key)  # a recurrence ends the game
            return chosen, True
    if not flags[2]:
        compute_mask(board, mask, owner, danger, s, memo, on_board, neighbours, degree)
    if s[FIRST_BLACK + side] == 1:
        # few legal actions among many candidates (a side pinned to its prison removals, say):
        # go to the mask directly on this side's next turns, until the mask shows otherwise
        legal = 0
        candidates_now = mask[n]
        for i in range(n):
            legal += mask[i]
            candidates_now += board[i] == EMPTY
        flags[side] = 4 * legal < candidates_now
    action = random_set_index(mask, n + 1)
    if action < 0:
        return -1, False  # no legal action: the side to move loses
    act_rules(board, mask, owner, danger, s, table, memo, action, keys, side_key, on_board, neighbours, degree)
    flags[2] = True
    return action, True


COMPILED = CompiledGame("asli", new_game=new_game, act=act, observe=observe, observe_mover=observe_mover, final_scores=final_scores,
                        playout_action=playout_action, playout_scratch=playout_scratch)
