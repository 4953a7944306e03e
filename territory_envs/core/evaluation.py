"""The pieces of the games' greedy evaluations (``GameDeclaration.evaluate``), over ``k`` positions
at once: the batched greedy opponent (``territory_envs.lookahead``) scores a batch's rows, the
greedy agent (``agents.greedy``) one state as a batch of one (:func:`positions_of`)."""
from __future__ import annotations

import numpy as np

from .kernels import BLACK, WHITE, colour_of, opponent_colour


class Positions:
    """Rows of a batch's arrays (``board``, ``mask``, ``scalars`` and each declared array under its
    name), read as attributes: the first ``k``, or with ``rows`` (an index array) those rows (a tree
    search's finished games among its node rows)."""

    def __init__(self, source, k: int | None = None, rows=None):
        self._source, self._rows = source, slice(k) if rows is None else np.asarray(rows)

    def __getattr__(self, name):
        return getattr(self._source, name)[self._rows]


class _OneState:
    def __init__(self, state):
        self._state = state

    def __getattr__(self, name):
        return (self._state.s if name == "scalars" else getattr(self._state, name))[None]


def positions_of(state):
    """One state as one position of :class:`Positions`."""
    return _OneState(state)


def owners(first, second) -> np.ndarray:
    """int8 ownership from two bool masks of the same shape: +1 where only ``first`` holds, -1 where
    only ``second``, 0 elsewhere (the form of ``GameDeclaration.ownership``)."""
    return first.astype(np.int8) - second.astype(np.int8)


def stone_owners(positions, game) -> np.ndarray:
    """Who holds each cell by its stone: +1 the first side's stones, -1 the second's, 0 an empty
    cell, int8 ``(k, N)``: the ownership of a game that declares none (``GameDeclaration.ownership``)."""
    board = positions.board
    return owners(board == BLACK, board == WHITE)


def margin(first, second, side) -> np.ndarray:
    """``side``'s points minus the other side's (``first``, ``second``: the sides' points)."""
    return np.where(side == 0, first - second, second - first).astype(np.float64)


def material(positions, game, side, opponent_to_act, extra=0) -> np.ndarray:
    """Own stones minus enemy stones (plus ``extra``), less the opponent's mobility when it moves
    next: its legal actions over ``num_actions + 1``, less than one stone (a player without a legal
    action loses)."""
    board = positions.board
    own = np.count_nonzero(board == colour_of(side)[:, None], axis=1)
    enemy = np.count_nonzero(board == opponent_colour(side)[:, None], axis=1)
    mobility = np.where(opponent_to_act, positions.mask.sum(axis=1, dtype=np.int64), 0)
    return (own - enemy + extra) - mobility / (game.num_actions + 1)
