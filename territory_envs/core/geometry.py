"""Board geometry shared by the four games: flat cell arrays with neighbour tables.

Every board lies in an ``H x W`` grid and a cell is addressed by its flat index ``r * W + c``, which
is also the action that places a stone there (docs/spec.md). Row 0 is the first row of observation
arrays and the top row of pictures.

* ``square(n)``: ``n x n`` points, 4 neighbours (orthogonal adjacency).
* ``hexhex(b)``: a hexagon of side ``b`` embedded in the ``(2b-1) x (2b-1)`` grid: cell ``(r, c)`` is
  on the board iff ``b-1 <= r+c <= 3(b-1)``; its 6 neighbours are ``(r-1,c) (r+1,c) (r,c-1) (r,c+1)
  (r-1,c+1) (r+1,c-1)``. Off-board cells have no neighbours and never hold a stone.

Move notation: column letters then a row number, ``c3``. Columns are lettered from the left as
spreadsheets do, no letter skipped: ``a`` .. ``z``, then ``aa``, ``ab``, ... (25 columns reach ``y``;
the 29 columns of Lifeline's side-15 grid end at ``ac``). Rows are numbered from the bottom, so
``a1`` is the bottom-left corner and the grid cell ``(r, c)`` is written
``column_letters(c) + str(H - r)``. Hex boards use the same names for the cells of their embedding
grid: on side 5, ``a1``..``e1`` is the bottom row and ``e9``..``i9``... (only on-board cells are legal
names).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .options import excerpt

LETTERS = "abcdefghijklmnopqrstuvwxyz"


def column_letters(c: int) -> str:
    """The letters of grid column ``c``: ``a`` .. ``z``, then ``aa``, ``ab``, ... past 26."""
    c = int(c)
    return LETTERS[c] if c < 26 else column_letters(c // 26 - 1) + LETTERS[c % 26]


def column_index(letters: str) -> int:
    """The grid column named by ``letters`` (the inverse of :func:`column_letters`)."""
    c = 0
    for ch in letters:
        c = 26 * c + LETTERS.index(ch) + 1
    return c - 1

# in increasing order of the cell offset, so every row of the neighbour table is sorted: the
# neighbours before a cell come first (union-find labelling stops at the first one after it)
SQUARE_STEPS = ((-1, 0), (0, -1), (0, 1), (1, 0))
HEX_STEPS = ((-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0))


@dataclass(frozen=True, eq=False)
class Geometry:
    """An immutable board: size, grid shape, on-board mask and neighbour table."""

    kind: str  # "square" or "hex"
    size: int  # points per side (square) or cells per side (hexhex)
    height: int
    width: int
    on_board: np.ndarray = field(repr=False)  # bool (N,)
    neighbours: np.ndarray = field(repr=False)  # int32 (N, max_degree), -1 padded
    degree: np.ndarray = field(repr=False)  # int32 (N,)
    num_points: int = 0  # cells on the board

    @property
    def num_cells(self) -> int:
        """Cells of the grid, on board or not: the number of placement actions."""
        return self.height * self.width

    @property
    def shape(self) -> tuple[int, int]:
        return (self.height, self.width)

    # --- conversions -------------------------------------------------------------------------
    def cell(self, r: int, c: int) -> int:
        return r * self.width + c

    def coords(self, cell: int) -> tuple[int, int]:
        return divmod(int(cell), self.width)

    def to_notation(self, cell: int) -> str:
        r, c = self.coords(cell)
        return f"{column_letters(c)}{self.height - r}"

    def from_notation(self, text: str) -> int:
        """Cell index of ``text`` (e.g. ``"c3"``); ``ValueError`` if it names no on-board cell."""
        t = text.strip().lower() if isinstance(text, str) else ""
        letters = t.rstrip("0123456789")
        digits = t[len(letters):]
        if not letters or not digits or len(letters) > 3 or any(ch not in LETTERS for ch in letters) \
                or len(digits) > 4 or not digits.isascii():
            raise ValueError(f"not a move in notation: {excerpt(text)} (expected column letters and a row "
                             f"number, e.g. 'c3')")
        c = column_index(letters)
        r = self.height - int(digits)
        if not (0 <= c < self.width and 0 <= r < self.height) or not self.on_board[r * self.width + c]:
            raise ValueError(f"{text!r} is not a point of this {self.describe()} board")
        return r * self.width + c

    def describe(self) -> str:
        if self.kind == "square":
            return f"{self.size}x{self.size}"
        return f"hexhex side {self.size}"


def _build(kind: str, size: int, height: int, width: int, on_board: np.ndarray, steps) -> Geometry:
    n = height * width
    neighbours = np.full((n, len(steps)), -1, dtype=np.int32)
    degree = np.zeros(n, dtype=np.int32)
    for r in range(height):
        for c in range(width):
            i = r * width + c
            if not on_board[i]:
                continue
            for dr, dc in steps:
                rr, cc = r + dr, c + dc
                if 0 <= rr < height and 0 <= cc < width and on_board[rr * width + cc]:
                    neighbours[i, degree[i]] = rr * width + cc
                    degree[i] += 1
    on_board.setflags(write=False)
    neighbours.setflags(write=False)
    degree.setflags(write=False)
    return Geometry(kind, size, height, width, on_board, neighbours, degree, int(on_board.sum()))


_CACHE: dict[tuple[str, int], Geometry] = {}


def square(n: int) -> Geometry:
    """The ``n x n`` square board (built once per size and shared)."""
    key = ("square", n)
    if key not in _CACHE:
        _CACHE[key] = _build("square", n, n, n, np.ones(n * n, dtype=np.bool_), SQUARE_STEPS)
    return _CACHE[key]


def hexhex(b: int) -> Geometry:
    """The hexhex board of side ``b`` in its ``(2b-1) x (2b-1)`` grid (built once per size)."""
    key = ("hex", b)
    if key not in _CACHE:
        h = 2 * b - 1
        r, c = np.divmod(np.arange(h * h), h)
        on = (r + c >= b - 1) & (r + c <= 3 * (b - 1))
        _CACHE[key] = _build("hex", b, h, h, on.astype(np.bool_), HEX_STEPS)
    return _CACHE[key]
