"""The fields of a game's state, declared once per game (:class:`Fields`), and the strict readers
of state-dict fields.

Every game keeps its state the same way:

* the board (int8 per cell), the legal mask (int8 per action), the move number and the history,
  which :class:`~territory_envs.core.game.GameState` keeps for all games;
* one int32 row ``s`` of scalars. Its first slots are the same in every game (:data:`TO_MOVE`,
  :data:`FLIP`, :data:`TERMINAL`, :data:`WINNER`); the game lays out the others from :data:`HEAD`
  on. Those that go into the state dict are named by :class:`RowField` declarations;
* the arrays the game keeps from move to move (:class:`Array`): derived facts and memos, rebuilt
  from the board and the row by ``_refresh`` and never serialised.

A game's :class:`Fields` lists them. From it the state allocates and clones its arrays and writes
and reads the row's part of the state dict; the batched env (``territory_envs.vector``) allocates
one row of each per game and moves games in and out of the batch. A new field is declared there
and nowhere else.

The compiled turn of every game (its ``act``) updates the row and returns :func:`head_code`, so
that the state class reads the side to move and the end from one returned int rather than from
the row (a numpy element read costs about 0.1 us, and the env asks for these at every step).
"""
from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Callable, Union

import numpy as np

from .jit import kernel
from .options import excerpt

# the head of every game's scalar row
TO_MOVE, FLIP, TERMINAL, WINNER = range(4)
HEAD = 4  # the first slot a game lays out itself

HEAD_BITS = 5  # the bits of head_code; a game's act may return facts of its own above them


@kernel(inline="always")
def head_code(s):
    """The head of row ``s`` in one int: bit 0 the side to move, bit 1 the flip, bit 2 the game
    over, bits 3-4 the winning side + 1 (0 for none)."""
    return s[TO_MOVE] + 2 * s[FLIP] + 4 * (s[TERMINAL] != 0) + 8 * (s[WINNER] + 1)


@kernel(inline="always")
def may_move(s, side):
    """Whether ``side`` is to move in a game that goes on: its observation then shows its legal actions."""
    return side == s[TO_MOVE] and s[TERMINAL] == 0


# the facts of a head_code (compiled code and Python alike)
@kernel(inline="always")
def head_side(head):
    """The side to move."""
    return head & 1


@kernel(inline="always")
def head_flip(head):
    """1 where ``player_0`` holds the second side."""
    return (head >> 1) & 1


@kernel(inline="always")
def head_over(head):
    """Whether the game is over."""
    return (head >> 2) & 1 == 1


@kernel(inline="always")
def head_winner(head):
    """The winning side, -1 for none (a draw, or the game goes on)."""
    return ((head >> 3) & 3) - 1


# ``(side to move, flip, over, winner)`` of every head_code, by the functions above: Python reads a
# head through this table (one lookup; calling the decoders from Python costs twice a step's margin)
HEAD_FACTS = tuple((head_side.py_func(h), head_flip.py_func(h), head_over.py_func(h), head_winner.py_func(h))
                   for h in range(1 << HEAD_BITS))

@kernel
def clear_row(s):
    """The row of a new game before the game sets its own slots: no winner, every other slot 0
    (Black, or Vertical, to move by ``player_0``)."""
    s[:] = 0
    s[WINNER] = -1


Bound = Union[int, Callable]  # a bound, or a function of the game giving it


@dataclass(frozen=True)
class Array:
    """An array a game keeps besides the board and the mask: one per state, one row per game in a
    batch. ``shape`` gives its shape from the game."""

    name: str
    dtype: type
    shape: Callable

    def new(self, game, count: int | None = None) -> np.ndarray:
        """Zeros of this array for ``game``; with ``count``, one row per game of a batch."""
        shape = tuple(self.shape(game))
        return np.zeros(shape if count is None else (count, *shape), dtype=self.dtype)


@dataclass(frozen=True)
class Table:
    """A growing hash table of uint64 keys (0 marks a free slot; ``core.kernels.hash_insert``) that a
    game keeps besides its arrays, with the number of its keys in slot ``count`` of the row. A turn
    adds one key at most; the batch doubles every game's table before one could be half full."""

    name: str
    count: int
    start: int = 64  # slots of a new table

    def new(self, count: int | None = None) -> np.ndarray:
        return np.zeros(self.start if count is None else (count, self.start), dtype=np.uint64)


@dataclass(frozen=True)
class RowField:
    """A state-dict field held in the scalar row: the slot ``slot`` (an integer or a bool), or with
    ``length`` the ``length`` slots from ``slot`` on (a list). Integers lie in ``low..high``."""

    name: str
    slot: int
    kind: type = int  # int or bool
    length: int = 0
    low: Bound = 0
    high: Bound = 1

    def read(self, s) -> object:
        convert = bool if self.kind is bool else int
        if self.length:
            return [convert(v) for v in s[self.slot:self.slot + self.length]]
        return convert(s[self.slot])

    def write(self, data: dict, game, s) -> None:
        """Check ``data[name]`` (``ValueError`` naming it) and store it in ``s``."""
        if self.kind is bool:
            value = field_bools(data, self.name, self.length) if self.length else field_bool(data, self.name)
        else:
            low = self.low(game) if callable(self.low) else self.low
            high = self.high(game) if callable(self.high) else self.high
            value = (field_ints(data, self.name, self.length, low, high) if self.length
                     else field_int(data, self.name, low, high))
        s[self.slot:self.slot + max(1, self.length)] = value


@dataclass(frozen=True)
class Fields:
    """What a game's state holds besides what every state holds: the length of its scalar row,
    the row's fields of the state dict in the dict's order, its arrays and its tables. One game's
    arrays in compiled code are ``(board, mask, s, *arrays, *tables)`` in this order."""

    size: int = HEAD
    row: tuple = ()
    arrays: tuple = ()
    tables: tuple = ()

    def __post_init__(self):
        slots = [k for f in self.row for k in range(f.slot, f.slot + max(1, f.length))]
        if any(not HEAD <= k < self.size for k in slots) or len(set(slots)) < len(slots):
            raise ValueError(f"row fields {[f.name for f in self.row]} overlap, or lie outside slots {HEAD}.."
                             f"{self.size - 1}")

    def new_row(self, flip: int = 0) -> np.ndarray:
        """The row of a state before the game sets its own slots (:func:`clear_row`), with ``flip``."""
        s = np.empty(self.size, dtype=np.int32)
        clear_row(s)
        s[FLIP] = flip
        return s

    def row_dict(self, s) -> dict:
        """The state-dict fields held in row ``s`` (besides ``to_move`` and ``flip``)."""
        return {f.name: f.read(s) for f in self.row}

    def load_row(self, data: dict, game, s) -> None:
        """Check the row's fields of ``data`` and store them in ``s``."""
        for f in self.row:
            f.write(data, game, s)


# --- strict fields of state dicts (GameState.from_dict and the games' _load_extra) -------------
MAX_MOVE_NUMBER = 2**31 - 1  # the batches count moves in int32


def field_int(data: dict, key: str, low: int, high: int) -> int:
    """``data[key]`` as a plain ``int`` in ``low..high`` (an ``int`` or numpy integer, not a bool)."""
    value = data[key]
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise ValueError(f"state dict: {key!r} must be an integer from {low} to {high}, got {excerpt(value)}")
    if not low <= value <= high:
        raise ValueError(f"state dict: {key!r} must be an integer from {low} to {high}, got {excerpt(value)}")
    return int(value)


def field_bool(data: dict, key: str) -> bool:
    """``data[key]`` as a ``bool``: ``True``/``False`` (or the integers 0 and 1)."""
    value = data[key]
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, numbers.Integral) and value in (0, 1):
        return bool(value)
    raise ValueError(f"state dict: {key!r} must be true or false, got {excerpt(value)}")


def field_bools(data: dict, key: str, length: int) -> list:
    value = data[key]
    if not isinstance(value, (list, tuple)) or len(value) != length:
        raise ValueError(f"state dict: {key!r} must be a list of {length} booleans, got {excerpt(value)}")
    return [field_bool({key: v}, key) for v in value]


def field_ints(data: dict, key: str, length: int, low: int, high: int) -> list:
    value = data[key]
    if not isinstance(value, (list, tuple)) or len(value) != length:
        raise ValueError(f"state dict: {key!r} must be a list of {length} integers, got {excerpt(value)}")
    return [field_int({key: v}, key, low, high) for v in value]


def field_array(data: dict, key: str, shape: tuple, low: int, high: int) -> np.ndarray:
    """``data[key]`` (a list or array of integers) as an int64 array of ``shape`` in ``low..high``."""
    value = data[key]
    try:
        array = np.asarray(value)
    except (ValueError, TypeError):
        array = None
    if array is None or array.shape != shape or not (array.size == 0 or np.issubdtype(array.dtype, np.integer)):
        raise ValueError(f"state dict: {key!r} must hold {shape[0]} integers from {low} to {high}, "
                         f"got {excerpt(value)}")
    if array.size and (array.min() < low or array.max() > high):
        raise ValueError(f"state dict: {key!r} must hold integers from {low} to {high}")
    return array.astype(np.int64)
