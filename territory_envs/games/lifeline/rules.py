"""Lifeline's rules as the text states them: a turn settled whole (a stone, then the dead enemy
groups, then the dead friendly ones: :func:`settle`), the derived facts of a position and its
placements by the local rule (:func:`analyse`, :func:`describe`), and a stone played that way
(:func:`play_stone`)."""
from __future__ import annotations

from numba import njit

from ...core.kernels import EMPTY, liveness
from .structure import build_memo


@njit(cache=True)
def settle(board, side, on_board, neighbours, degree, links=None):
    """Remove the dead enemy groups of ``side`` (0 Black, 1 White), then its dead friendly groups.
    Returns ``(labels, count, alive, reach)`` of the final board (see ``liveness``; with ``links``,
    the final board's links go there)."""
    mover = side + 1
    enemy = 3 - mover
    labels, count, alive, reach = liveness(board, on_board, neighbours, degree, links)
    for colour in (enemy, mover):
        removed = False
        for i in range(board.shape[0]):
            if board[i] == colour and not alive[labels[i]]:
                board[i] = EMPTY
                removed = True
        if removed:  # freed cells may revive friendly groups; recompute before judging them
            labels, count, alive, reach = liveness(board, on_board, neighbours, degree, links)
    return labels, count, alive, reach


@njit(cache=True)
def describe(board, side, labels, alive, reach, on_board, alive_cell, mask):
    """From a liveness result: ``alive_cell`` (stones of living groups) and the local legal mask of
    ``side`` (empty cells whose region touches one of its groups) into ``mask``; returns whether
    every group on the board lives (the condition under which the local mask is exact) and the
    number of legal cells."""
    all_alive = True
    legal = 0
    for i in range(board.shape[0]):
        alive_cell[i] = False
        mask[i] = False
        if not on_board[i]:
            continue
        k = labels[i]
        if board[i] != EMPTY:
            alive_cell[i] = alive[k]
            if not alive[k]:
                all_alive = False
            continue
        mask[i] = reach[k, side] != -1
        legal += mask[i]
    return all_alive, legal


@njit(cache=True)
def analyse(board, side, on_board, neighbours, degree, alive_cell, links, mask, memo=None):
    """Derived facts of a position with ``side`` to move: ``links`` (per empty cell, bit ``c`` set
    when it touches two or more groups of colour ``c``), ``memo`` if given, and ``describe``'s,
    whose result it returns."""
    labels, count, alive, reach = liveness(board, on_board, neighbours, degree, links)
    if memo is not None:
        build_memo(board, labels, count, neighbours, degree, memo)
    return describe(board, side, labels, alive, reach, on_board, alive_cell, mask)


@njit(cache=True)
def play_stone(board, side, cell, removal, on_board, neighbours, degree, alive_cell, links, mask, memo):
    """Place ``side``'s stone on ``cell`` (the last stone of its turn), remove if ``removal``, and
    describe the position for the opponent (as ``analyse``, ``memo`` included). Returns
    ``describe``'s result."""
    board[cell] = side + 1
    if removal:
        labels, count, alive, reach = settle(board, side, on_board, neighbours, degree, links)
    else:
        labels, count, alive, reach = liveness(board, on_board, neighbours, degree, links)
    build_memo(board, labels, count, neighbours, degree, memo)
    return describe(board, 1 - side, labels, alive, reach, on_board, alive_cell, mask)
