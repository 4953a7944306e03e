"""Text and picture rendering of square and hexhex boards (numpy only).

Boards are flat cell arrays over an ``H x W`` grid: cell ``r * W + c`` is row ``r`` (row 0 is the
top row of the picture), column ``c``. Coordinates are written in move notation: column letters
``a, b, c, ...`` for ``c = 0, 1, 2, ...`` (no letter skipped) and row number ``H - r`` (the bottom
row is 1). Hex boards use the letters and numbers of their embedding grid.

* :func:`render_ansi` - plain text (no escape codes) for ``render_mode="ansi"``.
* :func:`render_rgb` - a ``uint8 (height, width, 3)`` picture for ``render_mode="rgb_array"``.
* :func:`show_human` - prints a text rendering (``render_mode="human"``).

Stone values: 0 empty, 1 black (first side), 2 white (second side), anything else a neutral stone.

Pictures are built from a cached per-geometry background (wood, grid or hexagons, star points and
coordinate labels in the notation's lower-case letters, drawn with Pillow's scalable font where
Pillow is installed, else with a built-in 3x5 bitmap font) and per-cell sprites; a call only copies
the background, tints the overlay cells and blends the stone sprites, all as vectorised numpy
(a 19x19 board at ``cell_px=32`` takes about a millisecond or two).
"""
from __future__ import annotations

from collections import OrderedDict

import numpy as np

from .geometry import column_letters as col_label  # the notation's column names

__all__ = ["render_ansi", "render_rgb", "show_human", "col_label", "default_cell_px"]

_SQRT3 = float(np.sqrt(3.0))


def _check_kind(kind: str) -> str:
    if kind not in ("square", "hex"):
        raise ValueError(f"render: kind must be 'square' or 'hex', got {kind!r}")
    return kind


def _flat(a, n: int, dtype, name: str) -> np.ndarray:
    arr = np.asarray(a).reshape(-1)
    if arr.size != n:
        raise ValueError(f"render: {name} has {arr.size} entries, expected H*W = {n}")
    return arr.astype(dtype, copy=False)


# =================================================================================================
# Text
# =================================================================================================
_STONE_CH = {0: ".", 1: "X", 2: "O"}
_MARK_CH = {1: "+", 2: "-", 3: "*"}


def _cell_chars(on: np.ndarray, st: np.ndarray, marks) -> list[str]:
    out = []
    mk = None if marks is None else marks
    for i in range(st.size):
        if not on[i]:
            out.append(" ")
            continue
        v = int(st[i])
        if v == 0:
            m = 0 if mk is None else int(mk[i])
            out.append(_MARK_CH.get(m, "."))
        else:
            out.append(_STONE_CH.get(v, "#"))
    return out


def render_ansi(kind: str, H: int, W: int, on_board, stones, *, header: str = "", footer: str = "",
                marks=None) -> str:
    """Plain-text board.

    ``kind`` is ``"square"`` or ``"hex"``; ``on_board`` a bool array ``(H*W,)``; ``stones`` an int
    array ``(H*W,)``: ``.`` empty, ``X`` black (1), ``O`` white (2), ``#`` any other value (neutral).
    ``marks`` (optional int array ``(H*W,)``) decorates *empty* cells: 1 -> ``+``, 2 -> ``-``,
    3 -> ``*`` (e.g. territory hints); other codes leave ``.``. ``header`` / ``footer`` lines (when
    non-empty) go above / below the board. Off-board cells print as a blank.

    Square: column letters on the top and bottom lines, row numbers on both sides::

           a b c
         3 . X . 3
         2 . O . 2
         1 . . . 1
           a b c

    Hex: one text line per grid row, cells separated by a space and each row indented so that the
    hexagon shows (pointy-top layout, rows shifted half a cell per row; for hexhex boards the indent
    is the row's distance from the middle row). At the left of each row stand its row number and
    then, before a colon, the column letter of the row's *first* (leftmost) cell; the cell ``k``
    places further right has the letter ``k`` further on. Side 3 (``c5`` is the top-left cell, ``a1``
    the bottom-left, ``e3`` the right corner)::

         5 c:   . . .
         4 b:  . . . .
         3 a: . . . . .
         2 a:  . . . .
         1 a:   . . .
    """
    _check_kind(kind)
    n = H * W
    on = _flat(on_board, n, bool, "on_board")
    st = _flat(stones, n, np.int64, "stones")
    mk = None if marks is None else _flat(marks, n, np.int64, "marks")
    ch = _cell_chars(on, st, mk)
    nw = len(str(H))
    lines: list[str] = []
    if header:
        lines.extend(str(header).splitlines())
    if kind == "square":
        labels = [col_label(c) for c in range(W)]
        cw = max(len(s) for s in labels)
        letter_line = " " * (nw + 1) + " ".join(s.ljust(cw) for s in labels)
        lines.append(letter_line.rstrip())
        for r in range(H):
            num = str(H - r)
            cells = " ".join(ch[r * W + c].ljust(cw) for c in range(W))
            lines.append(f"{num:>{nw}} {cells} {num}")
        lines.append(letter_line.rstrip())
    else:
        rows = []
        for r in range(H):
            cs = [c for c in range(W) if on[r * W + c]]
            if cs:
                rows.append((r, cs[0], cs[-1]))
        if rows:
            shift = min(2 * c0 + r for r, c0, _ in rows)
            lw = max(len(col_label(c0)) for _, c0, _ in rows)
            for r, c0, c1 in rows:
                indent = " " * (2 * c0 + r - shift)
                cells = " ".join(ch[r * W + c] for c in range(c0, c1 + 1))
                lines.append(f"{H - r:>{nw}} {col_label(c0):>{lw}}: {indent}{cells}")
    if footer:
        lines.extend(str(footer).splitlines())
    return "\n".join(lines)


def show_human(text: str) -> None:
    """``render_mode="human"``: print the text rendering."""
    print(text, flush=True)


# =================================================================================================
# Bitmap font (3x5: letters of both cases, digits)
# =================================================================================================
_GLYPHS_SRC = {
    "A": (".#.", "#.#", "###", "#.#", "#.#"), "B": ("##.", "#.#", "##.", "#.#", "##."),
    "C": (".##", "#..", "#..", "#..", ".##"), "D": ("##.", "#.#", "#.#", "#.#", "##."),
    "E": ("###", "#..", "##.", "#..", "###"), "F": ("###", "#..", "##.", "#..", "#.."),
    "G": (".##", "#..", "#.#", "#.#", ".##"), "H": ("#.#", "#.#", "###", "#.#", "#.#"),
    "I": ("###", ".#.", ".#.", ".#.", "###"), "J": ("..#", "..#", "..#", "#.#", ".#."),
    "K": ("#.#", "#.#", "##.", "#.#", "#.#"), "L": ("#..", "#..", "#..", "#..", "###"),
    "M": ("#.#", "###", "###", "#.#", "#.#"), "N": ("##.", "#.#", "#.#", "#.#", "#.#"),
    "O": (".#.", "#.#", "#.#", "#.#", ".#."), "P": ("##.", "#.#", "##.", "#..", "#.."),
    "Q": (".#.", "#.#", "#.#", "##.", ".##"), "R": ("##.", "#.#", "##.", "#.#", "#.#"),
    "S": (".##", "#..", ".#.", "..#", "##."), "T": ("###", ".#.", ".#.", ".#.", ".#."),
    "U": ("#.#", "#.#", "#.#", "#.#", "###"), "V": ("#.#", "#.#", "#.#", "#.#", ".#."),
    "W": ("#.#", "#.#", "###", "###", "#.#"), "X": ("#.#", "#.#", ".#.", "#.#", "#.#"),
    "Y": ("#.#", "#.#", ".#.", ".#.", ".#."), "Z": ("###", "..#", ".#.", "#..", "###"),
    "0": ("###", "#.#", "#.#", "#.#", "###"), "1": (".#.", "##.", ".#.", ".#.", "###"),
    "2": ("##.", "..#", ".#.", "#..", "###"), "3": ("##.", "..#", ".#.", "..#", "##."),
    "4": ("#.#", "#.#", "###", "..#", "..#"), "5": ("###", "#..", "##.", "..#", "##."),
    "6": (".##", "#..", "###", "#.#", "###"), "7": ("###", "..#", ".#.", ".#.", ".#."),
    "8": ("###", "#.#", "###", "#.#", "###"), "9": ("###", "#.#", "###", "..#", "##."),
    # lower case, the notation's column letters: x-height of three or four rows
    "a": ("...", "##.", ".##", "#.#", ".##"), "b": ("#..", "##.", "#.#", "#.#", "##."),
    "c": ("...", ".##", "#..", "#..", ".##"), "d": ("..#", ".##", "#.#", "#.#", ".##"),
    "e": ("...", ".#.", "#.#", "##.", ".##"), "f": (".##", "#..", "###", "#..", "#.."),
    "g": (".##", "#.#", ".##", "..#", "##."), "h": ("#..", "##.", "#.#", "#.#", "#.#"),
    "i": (".#.", "...", "##.", ".#.", "###"), "j": ("..#", "...", "..#", "#.#", ".#."),
    "k": ("#..", "#.#", "##.", "##.", "#.#"), "l": ("##.", ".#.", ".#.", ".#.", "###"),
    "m": ("...", "##.", "###", "#.#", "#.#"), "n": ("...", "##.", "#.#", "#.#", "#.#"),
    "o": ("...", ".#.", "#.#", "#.#", ".#."), "p": ("...", "##.", "#.#", "##.", "#.."),
    "q": ("...", ".##", "#.#", ".##", "..#"), "r": ("...", "#.#", "##.", "#..", "#.."),
    "s": ("...", ".##", "#..", "..#", "##."), "t": (".#.", "###", ".#.", ".#.", "..#"),
    "u": ("...", "#.#", "#.#", "#.#", ".##"), "v": ("...", "#.#", "#.#", "#.#", ".#."),
    "w": ("...", "#.#", "#.#", "###", "#.#"), "x": ("...", "#.#", ".#.", ".#.", "#.#"),
    "y": ("#.#", "#.#", ".##", "..#", "##."), "z": ("...", "###", "..#", ".#.", "###"),
}
_GLYPHS = {k: np.array([[ch == "#" for ch in row] for row in v], dtype=bool) for k, v in _GLYPHS_SRC.items()}


def _text_mask(text: str, scale: int) -> np.ndarray:
    """Bool bitmap of ``text``, 1 blank column between glyphs, scaled by ``scale``."""
    parts = []
    for i, ch in enumerate(text):
        if i:
            parts.append(np.zeros((5, 1), dtype=bool))
        parts.append(_GLYPHS.get(ch, np.zeros((5, 3), dtype=bool)))
    m = np.concatenate(parts, axis=1) if parts else np.zeros((5, 0), dtype=bool)
    return np.kron(m, np.ones((scale, scale), dtype=bool)).astype(bool)


def _text_size(text: str, scale: int) -> tuple[int, int]:
    return 5 * scale, (4 * len(text) - 1) * scale


def _font_alpha(text: str, scale: int):
    """Coverage (0..1) of ``text`` drawn with Pillow's scalable default font, about as tall as the
    bitmap font at ``scale``; ``None`` where Pillow (with FreeType) is not installed."""
    try:
        from PIL import Image, ImageDraw, ImageFont
        font = ImageFont.load_default(size=max(8, int(round(6.5 * scale))))
    except (ImportError, OSError, TypeError, ValueError):  # no Pillow, or one without scalable fonts
        return None
    left, _, right, _ = font.getbbox(text)
    _, top, _, bottom = font.getbbox("0bdfg")  # one height for every label: their baselines line up
    canvas = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(canvas).text((-left, -top), text, fill=255, font=font)
    return np.asarray(canvas, dtype=np.float32) / 255.0


def _draw_text(img: np.ndarray, text: str, cx: float, cy: float, scale: int, color) -> None:
    """``text`` centred at ``(cx, cy)``: with a real font where Pillow is installed (antialiased),
    else with the built-in 3x5 bitmap font."""
    alpha = _font_alpha(text, scale)
    if alpha is not None:
        h, w = alpha.shape
        y0, x0 = int(round(cy - h / 2.0)), int(round(cx - w / 2.0))
        if y0 < 0 or x0 < 0 or y0 + h > img.shape[0] or x0 + w > img.shape[1]:
            return
        region = img[y0:y0 + h, x0:x0 + w]
        a = alpha[..., None]
        region[...] = region * (1 - a) + np.asarray(color, dtype=np.float32) * a
        return
    m = _text_mask(text, scale)
    h, w = m.shape
    y0 = int(round(cy - h / 2.0))
    x0 = int(round(cx - w / 2.0))
    y1, x1 = y0 + h, x0 + w
    if y0 < 0 or x0 < 0 or y1 > img.shape[0] or x1 > img.shape[1]:
        return
    img[y0:y1, x0:x1][m] = color


# =================================================================================================
# Pictures
# =================================================================================================
_WOOD = np.array([220.0, 179.0, 98.0], dtype=np.float32)
_HEX_FILL = np.array([236.0, 204.0, 140.0], dtype=np.float32)
_HEX_BG = np.array([196.0, 152.0, 84.0], dtype=np.float32)
_INK = np.array([45.0, 32.0, 18.0], dtype=np.float32)
_LABEL = np.array([70.0, 48.0, 24.0], dtype=np.float32)
# stone palettes (dark rim colour, highlight colour) for black, white, neutral
_STONE_LO = np.array([[14, 14, 16], [168, 168, 160], [88, 94, 104]], dtype=np.float32)
_STONE_HI = np.array([[125, 125, 130], [255, 255, 255], [205, 210, 218]], dtype=np.float32)
_DOT_COLOR = np.array([[235, 235, 235], [20, 20, 20], [210, 30, 30], [210, 30, 30]], dtype=np.float32)


def _wood(h: int, w: int) -> np.ndarray:
    """Wood-coloured float32 (h, w, 3) with a faint, deterministic grain."""
    y = np.arange(h, dtype=np.float32)[:, None]
    x = np.arange(w, dtype=np.float32)[None, :]
    g = (np.sin((y + 5.0 * np.sin(x / 41.0) + 2.0 * np.sin(x / 13.0 + y / 57.0)) * 0.33) * 4.0
         + np.sin(y * 0.071 + x * 0.004) * 3.0)
    return _WOOD[None, None, :] + g[..., None] * np.array([1.0, 0.85, 0.6], dtype=np.float32)


class _Geo:
    """Everything about a picture that depends only on the board shape and the cell size.

    ``base`` is the background on a canvas padded by ``pad`` pixels on every side (so that every
    sprite box lies inside it); the returned picture is the ``out_h x out_w`` middle. Stones are
    drawn as ``S x S`` sprites at ``(y0, x0)`` and overlays tint ``B x B`` boxes at ``(oy0, ox0)``;
    a sprite depends only on the sub-pixel offset of the cell centre in its box, so cells share
    them through ``sid`` / ``osid`` (one for all cells of a square board).
    """

    __slots__ = ("kind", "H", "W", "cp", "on", "pad", "out_h", "out_w", "base", "cx", "cy", "R",
                 "S", "x0", "y0", "sid", "keep", "prem", "passes", "B", "ox0", "oy0", "osid", "ow")


def _unique_offsets(cx, cy, x0, y0):
    """Distinct (centre - box origin) offsets and, per cell, the index of its offset."""
    key = np.round(np.stack([cx - x0, cy - y0], axis=1), 6)
    uniq, inv = np.unique(key, axis=0, return_inverse=True)
    return uniq, inv.reshape(-1)


def _local(uniq: np.ndarray, size: int):
    """Pixel-centre coordinates relative to the cell centre, (U, size, size) each."""
    ar = np.arange(size, dtype=np.float64) + 0.5
    px = ar[None, None, :] - uniq[:, 0, None, None]
    py = ar[None, :, None] - uniq[:, 1, None, None]
    return np.broadcast_to(px, (len(uniq), size, size)), np.broadcast_to(py, (len(uniq), size, size))


def _disc_sprites(g: _Geo, R: float) -> None:
    """Stone sprites: ``keep`` (background factor: disc and soft shadow) and ``prem`` (premultiplied
    shaded colour per stone kind), full 3-channel float32 so per-call maths is plain elementwise."""
    g.R = R
    off = max(1.0, R / 9.0)  # shadow offset, down-right
    S = int(np.ceil(2.0 * R + off)) + 4
    g.S = S
    g.x0 = np.floor(g.cx - R - 1.5).astype(np.int64)
    g.y0 = np.floor(g.cy - R - 1.5).astype(np.int64)
    uniq, g.sid = _unique_offsets(g.cx, g.cy, g.x0, g.y0)
    px, py = _local(uniq, S)
    d = np.sqrt(px * px + py * py)
    alpha = np.clip(R + 0.5 - d, 0.0, 1.0)
    ds = np.sqrt((px - off) ** 2 + (py - off) ** 2)
    shadow = 0.38 * np.clip((R + 0.8 - ds) / 1.6, 0.0, 1.0)
    dh = np.sqrt((px + 0.38 * R) ** 2 + (py + 0.42 * R) ** 2)
    shade = np.clip(1.0 - dh / (1.45 * R), 0.0, 1.0) ** 1.5
    keep = (1.0 - shadow) * (1.0 - alpha)
    g.keep = np.ascontiguousarray(np.repeat(keep[..., None], 3, axis=-1), dtype=np.float32)
    col = _STONE_LO[None, :, None, None, :] + (_STONE_HI - _STONE_LO)[None, :, None, None, :] * shade[:, None, ..., None]
    g.prem = np.ascontiguousarray(col * alpha[:, None, ..., None], dtype=np.float32)  # (U, 3, S, S, 3)


def _passes(rr: np.ndarray, cc: np.ndarray, box: int, spacing: float) -> list[np.ndarray]:
    """Split the cells into groups whose sprite boxes do not overlap (by ``r % m`` and ``c % m``).

    Neighbouring rows always fall in different groups; cells ``m`` rows or columns apart are at
    least ``m * spacing`` pixels apart, and a box's outermost pixel ring never changes anything,
    so ``box <= m * spacing + 1`` suffices (m = 2 except for tiny cells).
    """
    m = 2
    while box > m * spacing + 1:
        m += 1
    pid = (rr % m) * m + cc % m
    return [c for c in (np.flatnonzero(pid == k) for k in range(m * m)) if c.size]


def _build_square(H: int, W: int, on: np.ndarray, cp: int, coords: bool) -> _Geo:
    g = _Geo()
    lw = max(1, int(round(cp / 28.0)))
    sc = max(1, int(round(cp / 16.0)))
    if coords:
        th, tw = _text_size(str(H), sc)
        M = max(th, tw, _text_size(col_label(W - 1), sc)[1]) + 2 * sc + 2
    else:
        M = 0
    out_h, out_w = H * cp + 2 * M, W * cp + 2 * M
    R = 0.47 * cp
    pad = int(np.ceil(R)) + 6
    ch, cw = out_h + 2 * pad, out_w + 2 * pad
    o = pad + M  # canvas offset of the board's first cell block
    p0 = cp // 2 - lw // 2  # first pixel of a grid line inside its cell block
    centre = p0 + lw / 2.0
    rr, cc = np.divmod(np.arange(H * W), W)
    g.cx = o + cc * cp + centre
    g.cy = o + rr * cp + centre

    img = _wood(ch, cw)
    ys = o + np.arange(H) * cp + p0
    xs = o + np.arange(W) * cp + p0
    x_lo, x_hi = xs[0], xs[-1] + lw
    y_lo, y_hi = ys[0], ys[-1] + lw
    for y in ys:
        img[y:y + lw, x_lo:x_hi] = _INK
    for x in xs:
        img[y_lo:y_hi, x:x + lw] = _INK
    # star points
    stars = {9: (2, 4, 6), 13: (3, 6, 9), 19: (3, 9, 15)}.get(H) if H == W else None
    if stars:
        sr = max(1.5, cp / 11.0)
        yy = np.arange(ch, dtype=np.float32)[:, None] + 0.5
        xx = np.arange(cw, dtype=np.float32)[None, :] + 0.5
        pts = [(a, b) for a in stars for b in stars]
        if H == 9:
            pts = [(2, 2), (2, 6), (6, 2), (6, 6), (4, 4)]
        for a, b in pts:
            k = a * W + b
            y_c, x_c = g.cy[k], g.cx[k]
            y0, y1 = int(y_c - sr - 2), int(y_c + sr + 3)
            x0, x1 = int(x_c - sr - 2), int(x_c + sr + 3)
            d = np.sqrt((yy[y0:y1] - y_c) ** 2 + (xx[:, x0:x1] - x_c) ** 2)
            a_ = np.clip(sr + 0.5 - d, 0.0, 1.0)[..., None]
            img[y0:y1, x0:x1] = img[y0:y1, x0:x1] * (1 - a_) + _INK * a_
    if coords:
        for c in range(W):
            for yc in (pad + M / 2.0, pad + out_h - M / 2.0):
                _draw_text(img, col_label(c), g.cx[c], yc, sc, _LABEL)
        for r in range(H):
            for xc in (pad + M / 2.0, pad + out_w - M / 2.0):
                _draw_text(img, str(H - r), xc, g.cy[r * W], sc, _LABEL)

    # overlay box of each cell: its cp x cp square, uniform weight
    g.B = cp
    g.oy0 = (o + rr * cp).astype(np.int64)
    g.ox0 = (o + cc * cp).astype(np.int64)
    g.osid = None
    g.ow = None
    g.pad, g.out_h, g.out_w = pad, out_h, out_w
    g.base = np.clip(img + 0.5, 0, 255).astype(np.uint8)
    _disc_sprites(g, R)
    g.passes = _passes(rr, cc, g.S, cp)  # overlay boxes (the cell squares) never overlap
    return g


def _hex_labels(H: int, W: int, on: np.ndarray, cp: int, dy: float) -> list:
    """The coordinate labels of a hexhex picture, ``(text, x, y)`` before shifting: each row's
    number left of its first cell, each column's letter down-right of its last."""
    labels = []
    for r in range(H):
        cs = np.flatnonzero(on[r * W:(r + 1) * W])
        if cs.size:
            c0 = cs[0] - 0.8  # a little less than one cell left of the first cell
            labels.append((str(H - r), cp * (c0 + r / 2.0), dy * r))
    for c in range(W):
        rs = np.flatnonzero(on[c::W])
        if rs.size:
            r1 = rs[-1] + 0.8  # a little less than one cell down-right of the last cell
            labels.append((col_label(c), cp * (c + r1 / 2.0), dy * r1))
    return labels


def _hex_of_pixels(ch: int, cw: int, sx: float, sy: float, cp: int, dy: float):
    """For every pixel of a ``ch`` x ``cw`` canvas (the grid shifted by ``sx``, ``sy``): its hexagon
    ``(q, r)`` by axial cube rounding, the hexagon across its nearest edge, and its distance to
    that edge: ``(qi, ri, nq, nr, d)``."""
    yy = (np.arange(ch, dtype=np.float64)[:, None] + 0.5 - sy) * np.ones((1, cw))
    xx = (np.arange(cw, dtype=np.float64)[None, :] + 0.5 - sx) * np.ones((ch, 1))
    rf = yy / dy
    qf = xx / cp - rf / 2.0
    zf = -qf - rf
    qi, ri, zi = np.round(qf), np.round(rf), np.round(zf)
    dq, dr, dz = np.abs(qi - qf), np.abs(ri - rf), np.abs(zi - zf)
    fix_q = (dq > dr) & (dq > dz)
    fix_r = ~fix_q & (dr > dz)
    qi = np.where(fix_q, -ri - zi, qi)
    ri = np.where(fix_r, -qi - zi, ri)
    qi = qi.astype(np.int64)
    ri = ri.astype(np.int64)
    lx = xx - cp * (qi + ri / 2.0)
    ly = yy - dy * ri
    p1 = lx
    p2 = 0.5 * lx + (_SQRT3 / 2.0) * ly
    p3 = -0.5 * lx + (_SQRT3 / 2.0) * ly
    ap = np.stack([np.abs(p1), np.abs(p2), np.abs(p3)])
    which = np.argmax(ap, axis=0)
    d = np.max(ap, axis=0)
    # neighbour across the nearest edge: normals (1,0)->(q+1,r); (.5,.87)->(q,r+1); (-.5,.87)->(q-1,r+1)
    sign = np.sign(np.choose(which, [p1, p2, p3]))
    nq = qi + sign.astype(np.int64) * np.choose(which, [1, 0, -1])
    nr = ri + sign.astype(np.int64) * np.choose(which, [0, 1, 1])
    return qi, ri, nq, nr, d


def _build_hex(H: int, W: int, on: np.ndarray, cp: int, coords: bool) -> _Geo:
    g = _Geo()
    sc = max(1, int(round(cp / 16.0)))
    a = cp / 2.0  # apothem (centre to flat side); neighbour centres are cp apart
    s = cp / _SQRT3  # circumradius (centre to corner)
    dy = cp * _SQRT3 / 2.0
    rr, cc = np.divmod(np.arange(H * W), W)
    X = cp * (cc + rr / 2.0)
    Y = dy * rr
    onb = on
    if not onb.any():
        onb = np.ones_like(on)
    boxes = [(X[onb] - a, Y[onb] - s, X[onb] + a, Y[onb] + s)]
    labels = _hex_labels(H, W, on, cp, dy) if coords else []  # (text, x, y) before shifting
    for t, lx, ly in labels:
        th, tw = _text_size(t, sc)
        boxes.append((np.array([lx - tw / 2.0]), np.array([ly - th / 2.0]),
                      np.array([lx + tw / 2.0]), np.array([ly + th / 2.0])))
    xmin = min(float(b[0].min()) for b in boxes)
    ymin = min(float(b[1].min()) for b in boxes)
    xmax = max(float(b[2].max()) for b in boxes)
    ymax = max(float(b[3].max()) for b in boxes)
    margin = max(3, cp // 6)
    out_w = int(np.ceil(xmax - xmin)) + 2 * margin
    out_h = int(np.ceil(ymax - ymin)) + 2 * margin
    R = 0.41 * cp
    pad = int(np.ceil(R)) + 6
    ch, cw = out_h + 2 * pad, out_w + 2 * pad
    sx = pad + margin - xmin
    sy = pad + margin - ymin
    g.cx = X + sx
    g.cy = Y + sy

    qi, ri, nq, nr, d = _hex_of_pixels(ch, cw, sx, sy, cp, dy)

    def on_at(q, r):
        ok = (q >= 0) & (q < W) & (r >= 0) & (r < H)
        idx = np.where(ok, r * W + q, 0)
        return ok & on[idx], idx

    inside, cell = on_at(qi, ri)
    n_in, _ = on_at(nq, nr)
    bw = max(0.75, cp / 32.0)  # border half-width (each side of an edge)
    border = np.clip(d - (a - bw) + 0.5, 0.0, 1.0) * (inside | n_in)

    img = _wood(ch, cw) + (_HEX_BG - _WOOD)
    fill = _wood(ch, cw) + (_HEX_FILL - _WOOD)
    img = np.where(inside[..., None], fill, img)
    img = img * (1.0 - border[..., None]) + _INK * border[..., None]
    if coords:
        for t, lx_, ly_ in labels:
            _draw_text(img, t, lx_ + sx, ly_ + sy, sc, _LABEL)

    # overlay box of each cell: a square around its hexagon, weight = hexagon interior (1 - border)
    B = int(np.ceil(2.0 * s)) + 4
    g.B = B
    g.ox0 = np.floor(g.cx - s - 2.0).astype(np.int64)
    g.oy0 = np.floor(g.cy - s - 2.0).astype(np.int64)
    uniq, g.osid = _unique_offsets(g.cx, g.cy, g.ox0, g.oy0)
    px, py = _local(uniq, B)
    dh = np.maximum(np.abs(px), np.maximum(np.abs(0.5 * px + (_SQRT3 / 2.0) * py),
                                           np.abs(-0.5 * px + (_SQRT3 / 2.0) * py)))
    w = np.clip((a - bw) + 0.5 - dh, 0.0, 1.0)
    g.ow = np.ascontiguousarray(np.repeat(w[..., None], 3, axis=-1), dtype=np.float32)
    g.pad, g.out_h, g.out_w = pad, out_h, out_w
    g.base = np.clip(img + 0.5, 0, 255).astype(np.uint8)
    _disc_sprites(g, R)
    g.passes = _passes(rr, cc, max(g.S, g.B), dy)
    return g


_GEO_CACHE: "OrderedDict[tuple, _Geo]" = OrderedDict()
_GEO_CACHE_SIZE = 32


def _geometry(kind: str, H: int, W: int, on: np.ndarray, cp: int, coords: bool) -> _Geo:
    key = (kind, H, W, on.tobytes(), cp, coords)
    g = _GEO_CACHE.get(key)
    if g is not None:
        _GEO_CACHE.move_to_end(key)
        return g
    g = (_build_square if kind == "square" else _build_hex)(H, W, on, cp, coords)
    g.kind, g.H, g.W, g.cp, g.on = kind, H, W, cp, on.copy()
    _GEO_CACHE[key] = g
    while len(_GEO_CACHE) > _GEO_CACHE_SIZE:
        _GEO_CACHE.popitem(last=False)
    return g


def _windows(a: np.ndarray, size: int) -> np.ndarray:
    """Writable view ``win[y, x] == a[y:y+size, x:x+size]`` (for 2-D or 3-D ``a``).

    Indexing it with two integer arrays gathers (or, assigned to, scatters) one square box per
    cell with plain strided copies; boxes written in one assignment must not overlap, which the
    groups made by :func:`_passes` guarantee.
    """
    h, w = a.shape[:2]
    shape = (h - size + 1, w - size + 1, size, size) + a.shape[2:]
    strides = a.strides[:2] + a.strides[:2] + a.strides[2:]
    return np.lib.stride_tricks.as_strided(a, shape=shape, strides=strides, writeable=True)


def default_cell_px(H: int, W: int) -> int:
    """The default cell size: pictures about 600 pixels across, cells of at least 32 pixels."""
    return max(32, 576 // max(int(H), int(W)))


# (long: one picture drawn in order, board, tints, stones, labels; each part is a few lines of numpy)
def render_rgb(kind: str, H: int, W: int, on_board, stones, *, overlays=(), last_move: int = -1,
               cell_px: int | None = None, coords: bool = True, cell_text=None) -> np.ndarray:
    """Picture of the board as a ``uint8 (height, width, 3)`` array.

    Square boards: wooden background, grid lines through the cell centres (star points on 9x9,
    13x13 and 19x19), stones as shaded discs with a soft shadow at the intersections. Hex boards:
    light hexagons (pointy-top, axial layout ``x = cell_px * (c + r/2)``, ``y = cell_px*sqrt(3)/2*r``)
    with a thin dark border on a darker wood background, stones as discs inside the hexagons.
    ``cell_px`` is the distance between neighbouring cell centres (default
    :func:`default_cell_px`: a 9x9 grid at 64, 19x19 at 32).

    ``overlays``: sequence of ``(mask, (r, g, b), alpha)``; each on-board cell where the bool
    ``mask (H*W,)`` is true has its area (square: the ``cell_px`` square around the intersection;
    hex: the hexagon inside its border) tinted with the colour at that alpha, in order, under the
    stones. ``last_move >= 0`` marks that cell with a small dot: white on a black stone, black on a
    white stone, red on a neutral stone or an empty cell.

    ``coords`` (default True) draws the coordinate labels with a tiny bitmap font (the notation's
    lower-case letters): square boards get column letters above and below and row numbers left and right;
    hex boards get each row's number left of its first cell and each column's letter past its
    last (bottom / lower-right) cell. With ``coords=False`` the picture is the board alone
    (square: exactly ``(H*cell_px, W*cell_px, 3)``).

    ``cell_text`` (optional, ``H*W`` strings, ``""`` for none) writes a short text at cell centres,
    over the stones (e.g. every cell's name, for a picture of the notation).
    """
    _check_kind(kind)
    H, W = int(H), int(W)
    cp = default_cell_px(H, W) if cell_px is None else int(cell_px)
    if cp < 4:
        raise ValueError(f"render_rgb: cell_px must be at least 4, got {cell_px}")
    n = H * W
    on = _flat(on_board, n, bool, "on_board")
    st = _flat(stones, n, np.int64, "stones")
    g = _geometry(kind, H, W, on, cp, bool(coords))
    work = g.base.copy()
    passes = g.passes

    if overlays:
        owin = _windows(work, g.B)
        tile = np.empty((g.B, g.B, 3), dtype=np.float32)
        for ov in overlays:
            mask, color, alpha = ov
            m = _flat(mask, n, bool, "overlay mask") & on
            alpha = min(float(alpha), 1.0)
            if alpha <= 0.0 or not m.any():
                continue
            tile[:] = np.asarray(color, dtype=np.float32).reshape(3)
            for cells in passes:
                cells = cells[m[cells]]
                if cells.size == 0:
                    continue
                ys, xs = g.oy0[cells], g.ox0[cells]
                reg = owin[ys, xs].astype(np.float32)
                if g.ow is None:
                    reg *= 1.0 - alpha
                    reg += alpha * tile
                else:
                    reg += (alpha * g.ow[g.osid[cells]]) * (tile - reg)
                reg += 0.5
                owin[ys, xs] = reg.astype(np.uint8)

    occ = (st != 0) & on
    if occ.any():
        kind_idx = np.where(st == 1, 0, np.where(st == 2, 1, 2))
        swin = _windows(work, g.S)
        for cells in passes:
            cells = cells[occ[cells]]
            if cells.size == 0:
                continue
            ys, xs = g.y0[cells], g.x0[cells]
            sid = g.sid[cells]
            reg = swin[ys, xs].astype(np.float32)
            reg *= g.keep[sid]
            reg += g.prem[sid, kind_idx[cells]]
            reg += 0.5
            swin[ys, xs] = reg.astype(np.uint8)

    lm = int(last_move)
    if 0 <= lm < n and on[lm]:
        v = int(st[lm])
        dot = _DOT_COLOR[0 if v == 1 else 1 if v == 2 else 2 if v != 0 else 3]
        rd = max(1.6, 0.2 * g.R)
        y0, x0 = int(g.y0[lm]), int(g.x0[lm])
        ar = np.arange(g.S, dtype=np.float32) + 0.5
        d = np.sqrt((y0 + ar[:, None] - g.cy[lm]) ** 2 + (x0 + ar[None, :] - g.cx[lm]) ** 2)
        a = np.clip(rd + 0.5 - d, 0.0, 1.0)[..., None]
        reg = work[y0:y0 + g.S, x0:x0 + g.S].astype(np.float32)
        work[y0:y0 + g.S, x0:x0 + g.S] = (reg * (1 - a) + dot * a + 0.5).astype(np.uint8)

    if cell_text is not None:
        texts = list(cell_text)
        if len(texts) != n:
            raise ValueError(f"render_rgb: cell_text has {len(texts)} entries, expected H*W = {n}")
        sc = max(1, int(round(cp / 24.0)))
        for k in np.flatnonzero(on):
            if texts[k]:
                _draw_text(work, str(texts[k]), g.cx[k], g.cy[k], sc, _INK if st[k] != 1 else _DOT_COLOR[0])

    p = g.pad
    return np.ascontiguousarray(work[p:p + g.out_h, p:p + g.out_w])
