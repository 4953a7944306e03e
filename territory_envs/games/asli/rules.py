"""Asli's rules as the text states them: a placement and the captures it makes, incursions, and
whether a turn is legal (a single stone, or each stone of a double first turn), decided directly by
playing it out on a copy. The fast mask of single-stone turns is :mod:`.mask`; these are its
reference and the mask of first turns."""
from __future__ import annotations

import numpy as np

from ...core.jit import kernel
from ...core.kernels import (EMPTY, adjacent, colour_of, has_sharing_partner, liveness, opponent_colour,
                             region_colours, regions_next_to)

NOBODY, BLACK_OWNS, WHITE_OWNS = 0, 1, 2
MAX_PRISON = 2**31 - 1  # the prison counts are int32 scalars


@kernel
def place_and_capture(board, side, p, on_board, neighbours, degree):
    """``side`` places on ``p``; every dead enemy group goes to the prison. Returns
    ``(groups, stones, friends_alive)``: enemy groups and stones captured, and whether every
    friendly group lives afterwards."""
    mover = colour_of(side)
    board[p] = mover
    labels, count, alive, _ = liveness(board, on_board, neighbours, degree)
    counted = np.zeros(count, dtype=np.bool_)
    groups = 0
    stones = 0
    friends_alive = True
    for i in range(board.shape[0]):
        b = board[i]
        if b == EMPTY or alive[labels[i]]:
            continue
        if b == mover:
            friends_alive = False  # unless a capture revives it: checked again below
        else:
            if not counted[labels[i]]:
                counted[labels[i]] = True
                groups += 1
            board[i] = EMPTY
            stones += 1
    if stones == 0 or friends_alive:
        return groups, stones, friends_alive
    labels, count, alive, _ = liveness(board, on_board, neighbours, degree)
    for i in range(board.shape[0]):
        if board[i] == mover and not alive[labels[i]]:
            return groups, stones, False
    return groups, stones, True


@kernel
def is_incursion(board, side, p, on_board, neighbours, degree):
    """Is a stone of ``side`` on the empty ``p`` an incursion (p's territory owned by the opponent:
    the stones around it are all the opponent's)? A flood fill of p's region alone."""
    n = board.shape[0]
    return region_colours(board, p, neighbours, degree, np.zeros(n, dtype=np.bool_),
                          np.empty(n, dtype=np.int32)) == opponent_colour(side)


@kernel
def single_turn_legal(board, side, p, ban, on_board, neighbours, degree):
    """Exact: is a single placement on ``p`` a legal turn?"""
    incursion = ban and is_incursion(board, side, p, on_board, neighbours, degree)
    return placement_legal(board, side, p, ban and incursion, on_board, neighbours, degree)


@kernel
def placement_legal(board, side, p, banned_if_minimal, on_board, neighbours, degree):
    """Exact, knowing whether a minimal incursion on ``p`` would be banned (the ban is on and
    ``p`` lies in enemy territory)."""
    trial = board.copy()
    groups, _, alive = place_and_capture(trial, side, p, on_board, neighbours, degree)
    return alive and not (banned_if_minimal and groups == 1)


@kernel
def pair_turn_legal(board, side, first, second, ban, on_board, neighbours, degree):
    """Exact: is the double placement ``first`` then ``second`` (capturing after each) legal?"""
    if ban and is_incursion(board, side, first, on_board, neighbours, degree):
        trial = board.copy()
        groups, _, _ = place_and_capture(trial, side, first, on_board, neighbours, degree)
        if groups == 1:
            return False
    trial = board.copy()
    place_and_capture(trial, side, first, on_board, neighbours, degree)
    if trial[second] != EMPTY:
        return False
    incursion = is_incursion(trial, side, second, on_board, neighbours, degree)
    groups, _, alive = place_and_capture(trial, side, second, on_board, neighbours, degree)
    return alive and not (ban and incursion and groups == 1)


@kernel
def first_stone_mask(board, side, ban, quick, on_board, neighbours, degree, mask):
    """First stone of a double placement: legal iff some second stone completes a legal turn.
    With ``quick`` (no ban, the side has no stone: every first turn) a stone with an empty
    neighbour ``x`` that has an empty neighbour ``q`` not touching the stone is legal: the pair
    shares x's region and lives. Otherwise the partner is searched by simulation."""
    n = board.shape[0]
    for p in range(n):
        mask[p] = False
        if not on_board[p] or board[p] != EMPTY:
            continue
        if quick and has_sharing_partner(board, p, neighbours, degree):
            mask[p] = True
            continue
        for k in range(1, n):
            q = (p + n // 2 + k) % n
            if q != p and on_board[q] and board[q] == EMPTY and pair_turn_legal(
                    board, side, p, q, ban, on_board, neighbours, degree):
                mask[p] = True
                break


@kernel
def second_stone_mask(board, side, first, ban, quick, on_board, neighbours, degree, mask):
    """Second stone (``board`` holds the first stone and its captures): legal iff the turn ends
    with every friendly group alive and, under the ban, is no minimal incursion. With ``quick``
    (no ban, no other friendly stone) a stone touching the first is illegal (the pair would be a
    lone group), and one in a region next to the first is legal at once (the two share it)."""
    labels, near = regions_next_to(board, first, on_board, neighbours, degree)
    for p in range(board.shape[0]):
        mask[p] = False
        if not on_board[p] or board[p] != EMPTY:
            continue
        if quick and adjacent(p, first, neighbours, degree):
            continue  # the pair would be the side's one group, dead whatever it captures
        if quick and near[labels[p]]:
            mask[p] = True
        else:
            mask[p] = single_turn_legal(board, side, p, ban, on_board, neighbours, degree)
