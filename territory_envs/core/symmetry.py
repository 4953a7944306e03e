"""The symmetries of each board, as permutations of its grid cells.

A symmetry is an array ``perm`` of length ``H * W``: the stone on cell ``i`` goes to cell
``perm[i]``. Off-board cells of a hexhex grid stay where they are (every observation plane holds
the same value on all of them), so one permutation moves observations, masks and policies alike:

* :func:`transform_planes` moves an ``(..., H, W, C)`` observation;
* :func:`transform_actions` moves an ``(..., A)`` mask or policy (special actions stay put);
* ``perm[action]`` moves one placement.

``square_symmetries(n)`` are the 8 of the dihedral group of the square; ``hexhex_symmetries(b)`` the
12 of the regular hexagon, found in the axial coordinates of the embedding grid.
``board_symmetries(game)`` picks a game's own: Linage's two sides own regions by line direction, so
it keeps only the 4 that map rows to rows and columns to columns.
"""
from __future__ import annotations

import numpy as np

from .geometry import Geometry


def square_symmetries(n: int) -> np.ndarray:
    """``(8, n*n)``: identity, the three rotations, the four reflections."""
    r, c = np.divmod(np.arange(n * n), n)
    m = n - 1
    images = [(r, c), (c, m - r), (m - r, m - c), (m - c, r),  # rotations by 0, 90, 180, 270 degrees
              (r, m - c), (m - r, c), (c, r), (m - c, m - r)]  # mirror, flip, both diagonals
    return np.stack([rr * n + cc for rr, cc in images]).astype(np.int64)


def square_axis_symmetries(n: int) -> np.ndarray:
    """``(4, n*n)``: the symmetries that keep rows as rows: identity, mirror, flip, half turn."""
    return square_symmetries(n)[[0, 4, 5, 2]]


def hexhex_symmetries(b: int) -> np.ndarray:
    """``(12, (2b-1)**2)``: the 6 rotations and 6 reflections of the hexhex board of side ``b``.

    With ``x = c - (b-1)``, ``z = r - (b-1)``, ``y = -x - z`` (cube coordinates of the grid cell
    ``(r, c)``), a turn by 60 degrees is ``(x, y, z) -> (-z, -x, -y)`` and swapping ``x`` and ``z``
    reflects; both keep the board (``max(|x|, |y|, |z|) <= b-1``)."""
    h = 2 * b - 1
    r, c = np.divmod(np.arange(h * h), h)
    x, z = c - (b - 1), r - (b - 1)
    y = -x - z
    on = np.maximum(np.abs(x), np.maximum(np.abs(y), np.abs(z))) <= b - 1
    out = []
    for mirror in (False, True):
        cx, cy, cz = (z, y, x) if mirror else (x, y, z)
        for _ in range(6):
            perm = np.arange(h * h)
            perm[on] = ((cz + b - 1) * h + (cx + b - 1))[on]
            out.append(perm)
            cx, cy, cz = -cz, -cx, -cy
    return np.stack(out).astype(np.int64)


def geometry_symmetries(geometry: Geometry) -> np.ndarray:
    """Every symmetry of the board (square or hexhex)."""
    if geometry.kind == "hex":
        return hexhex_symmetries(geometry.size)
    return square_symmetries(geometry.size)


def board_symmetries(game) -> np.ndarray:
    """The symmetries under which ``game``'s rules are unchanged (the first is the identity), as its
    declaration gives them."""
    return game.declaration.board_symmetries(game)


def transform_planes(planes: np.ndarray, perm: np.ndarray) -> np.ndarray:
    """``planes`` ``(..., H, W, C)`` with the content of cell ``i`` moved to cell ``perm[i]``."""
    *lead, h, w, ch = planes.shape
    flat = planes.reshape(*lead, h * w, ch)
    out = np.empty_like(flat)
    out[..., perm, :] = flat
    return out.reshape(planes.shape)


def transform_actions(values: np.ndarray, perm: np.ndarray) -> np.ndarray:
    """``values`` ``(..., A)`` over actions (a mask, a policy): placements moved by ``perm``,
    the special actions after the ``H * W`` placements kept."""
    n = perm.shape[0]
    out = values.copy()
    out[..., perm] = values[..., :n]
    return out
