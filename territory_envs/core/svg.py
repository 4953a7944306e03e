"""Vector pictures of square and hexhex boards: SVG text, with no dependency.

* :func:`render_svg` - one position: the board, the coordinates in the library's notation, the
  tints of the game's derived facts, the stones, the last move marked, a caption and a legend.
* :func:`animate_svg` - positions as one animated SVG (SMIL, discrete frames, looping), which
  browsers and notebooks play with no script.

The layout is the numpy picture's (:mod:`territory_envs.core.render`): square boards put stones on
the intersections, ``cell_px`` apart; hexhex boards are pointy-top hexagons in the axial layout
``x = cell_px * (c + r / 2)``, ``y = cell_px * sqrt(3) / 2 * r``. Each stone is a ``<circle>`` with
``class="stone black|white|neutral"`` and ``data-cell`` (its cell index) and ``data-name`` (its
name in the notation), so a page or a test can find it.
"""
from __future__ import annotations

from xml.sax.saxutils import escape

import numpy as np

from .geometry import column_letters
from .render import _check_kind, _flat, default_cell_px

__all__ = ["render_svg", "animate_svg", "THEMES"]

_SQRT3 = float(np.sqrt(3.0))

# colours of each theme: the page, the board (square) or the hexagons' fill and gaps (hex), lines,
# labels and text, the three stone kinds with their rims, and the last-move dot on each stone kind
THEMES = {
    "light": {"page": "#ffffff", "board": "#dcb362", "hex_fill": "#eccc8c", "hex_gap": "#c49854",
              "line": "#2d2012", "label": "#462f18", "text": "#1f1f1f",
              "stone": {"black": ("#141416", "#000000"), "white": ("#f6f6f2", "#8c8c84"),
                        "neutral": ("#8a929e", "#4a5058")},
              "dot": {"black": "#ebebeb", "white": "#141414", "neutral": "#d21e1e", "empty": "#d21e1e"}},
    "dark": {"page": "#16181c", "board": "#4a3c26", "hex_fill": "#5c4a30", "hex_gap": "#2a2216",
             "line": "#d9c7a0", "label": "#d8d2c4", "text": "#e6e6e6",
             "stone": {"black": ("#0a0a0c", "#9a9a9a"), "white": ("#f0f0ea", "#f0f0ea"),
                       "neutral": ("#7c8490", "#c0c6d0")},
             "dot": {"black": "#ebebeb", "white": "#141414", "neutral": "#ff4040", "empty": "#ff4040"}},
}
_STONE_KIND = {1: "black", 2: "white"}
_STAR_POINTS = {9: [(2, 2), (2, 6), (6, 2), (6, 6), (4, 4)],
                13: [(a, b) for a in (3, 6, 9) for b in (3, 6, 9)],
                19: [(a, b) for a in (3, 9, 15) for b in (3, 9, 15)]}


def _f(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _hex_colour(rgb) -> str:
    r, g, b = (int(round(float(v))) for v in rgb)
    return f"#{r:02x}{g:02x}{b:02x}"


def _check(kind: str, theme: str) -> dict:
    _check_kind(kind)
    if theme not in THEMES:
        raise ValueError(f"render_svg: theme must be one of {sorted(THEMES)}, got {theme!r}")
    return THEMES[theme]


class _Layout:
    """Cell centres, the cell shapes and the labels of one board, in SVG units."""

    def __init__(self, kind: str, H: int, W: int, on: np.ndarray, cp: float, coords: bool):
        self.kind, self.H, self.W, self.on, self.cp = kind, H, W, on, cp
        rr, cc = np.divmod(np.arange(H * W), W)
        self.font = 0.3 * cp
        if kind == "square":
            margin = 0.8 * cp if coords else 0.1 * cp
            self.cx = margin + (cc + 0.5) * cp
            self.cy = margin + (rr + 0.5) * cp
            self.width, self.height = W * cp + 2 * margin, H * cp + 2 * margin
            self.labels = []
            if coords:
                for c in range(W):
                    for y in (margin / 2, self.height - margin / 2):
                        self.labels.append((column_letters(c), self.cx[c], y))
                for r in range(H):
                    for x in (margin / 2, self.width - margin / 2):
                        self.labels.append((str(H - r), x, self.cy[r * W]))
            self.stone_r = 0.47 * cp
        else:
            s = cp / _SQRT3  # circumradius of a hexagon whose neighbours are cp apart
            dy = cp * _SQRT3 / 2
            x, y = cp * (cc + rr / 2.0), dy * rr
            labels = []
            if coords:  # each row's number left of its first cell, each column's letter past its last
                for r in range(H):
                    cs = np.flatnonzero(on[r * W:(r + 1) * W])
                    if cs.size:
                        labels.append((str(H - r), cp * (cs[0] - 0.8 + r / 2.0), dy * r))
                for c in range(W):
                    rs = np.flatnonzero(on[c::W])
                    if rs.size:
                        labels.append((column_letters(c), cp * (c + (rs[-1] + 0.8) / 2.0), dy * (rs[-1] + 0.8)))
            cells = on if on.any() else np.ones_like(on)
            xs = np.concatenate([x[cells] - cp / 2, x[cells] + cp / 2] + [np.array([lx - self.font, lx + self.font])
                                                                          for _, lx, _ in labels])
            ys = np.concatenate([y[cells] - s, y[cells] + s] + [np.array([ly - self.font, ly + self.font])
                                                               for _, _, ly in labels])
            margin = 0.25 * cp
            shift_x, shift_y = margin - xs.min(), margin - ys.min()
            self.cx, self.cy = x + shift_x, y + shift_y
            self.width, self.height = xs.max() - xs.min() + 2 * margin, ys.max() - ys.min() + 2 * margin
            self.labels = [(t, lx + shift_x, ly + shift_y) for t, lx, ly in labels]
            self.hex_r = s
            self.stone_r = 0.41 * cp

    def cell_shape(self, k: int, extra: str) -> str:
        """The element covering cell ``k``: its square, or its hexagon."""
        x, y, cp = self.cx[k], self.cy[k], self.cp
        if self.kind == "square":
            return f'<rect x="{_f(x - cp / 2)}" y="{_f(y - cp / 2)}" width="{_f(cp)}" height="{_f(cp)}" {extra}/>'
        r = self.hex_r * 0.96  # inside the gap between hexagons
        points = " ".join(f"{_f(x + r * np.cos(a))},{_f(y + r * np.sin(a))}"
                          for a in np.radians(np.arange(-90, 270, 60)))
        return f'<polygon points="{points}" {extra}/>'

    def name(self, k: int) -> str:
        r, c = divmod(int(k), self.W)
        return f"{column_letters(c)}{self.H - r}"


def _board(layout: _Layout, colours: dict) -> list[str]:
    out = [f'<rect class="page" width="100%" height="100%" fill="{colours["page"]}"/>']
    on, cp = layout.on, layout.cp
    if layout.kind == "square":
        H, W = layout.H, layout.W
        x0, x1 = layout.cx[0], layout.cx[W - 1]
        y0, y1 = layout.cy[0], layout.cy[(H - 1) * W]
        out.append(f'<rect class="board" x="{_f(x0 - cp / 2)}" y="{_f(y0 - cp / 2)}" width="{_f(x1 - x0 + cp)}" '
                   f'height="{_f(y1 - y0 + cp)}" fill="{colours["board"]}"/>')
        lines = [f'M{_f(x0)} {_f(layout.cy[r * W])}H{_f(x1)}' for r in range(H)]
        lines += [f'M{_f(layout.cx[c])} {_f(y0)}V{_f(y1)}' for c in range(W)]
        out.append(f'<path class="grid" d="{"".join(lines)}" stroke="{colours["line"]}" '
                   f'stroke-width="{_f(max(1.0, cp / 32))}" fill="none"/>')
        if H == W:
            for r, c in _STAR_POINTS.get(H, []):
                k = r * W + c
                out.append(f'<circle class="star" cx="{_f(layout.cx[k])}" cy="{_f(layout.cy[k])}" '
                           f'r="{_f(max(1.5, cp / 11))}" fill="{colours["line"]}"/>')
    else:
        for k in np.flatnonzero(on):
            out.append(layout.cell_shape(k, f'class="cell" fill="{colours["hex_fill"]}" '
                                            f'stroke="{colours["hex_gap"]}" stroke-width="{_f(max(1.0, cp / 16))}"'))
    for text, x, y in layout.labels:
        out.append(f'<text class="coord" x="{_f(x)}" y="{_f(y)}" fill="{colours["label"]}" '
                   f'text-anchor="middle" dominant-baseline="central">{escape(text)}</text>')
    return out


def _position(layout: _Layout, colours: dict, stones: np.ndarray, overlays, last_move: int) -> list[str]:
    out = []
    on = layout.on
    for index, (mask, rgb, alpha) in enumerate(overlays):
        cells = np.flatnonzero(np.asarray(mask, dtype=bool).reshape(-1) & on)
        for k in cells:
            out.append(layout.cell_shape(k, f'class="tint" data-tint="{index}" fill="{_hex_colour(rgb)}" '
                                            f'fill-opacity="{min(float(alpha), 1.0):.2f}"'))
    for k in np.flatnonzero((stones != 0) & on):
        kind = _STONE_KIND.get(int(stones[k]), "neutral")
        fill, rim = colours["stone"][kind]
        out.append(f'<circle class="stone {kind}" data-cell="{k}" data-name="{layout.name(k)}" '
                   f'cx="{_f(layout.cx[k])}" cy="{_f(layout.cy[k])}" r="{_f(layout.stone_r)}" fill="{fill}" '
                   f'stroke="{rim}" stroke-width="{_f(max(0.8, layout.cp / 40))}"/>')
    if 0 <= last_move < stones.size and on[last_move]:
        v = int(stones[last_move])
        kind = "empty" if v == 0 else _STONE_KIND.get(v, "neutral")
        out.append(f'<circle class="last-move" data-cell="{last_move}" data-name="{layout.name(last_move)}" '
                   f'cx="{_f(layout.cx[last_move])}" cy="{_f(layout.cy[last_move])}" '
                   f'r="{_f(max(2.0, 0.2 * layout.stone_r))}" fill="{colours["dot"][kind]}"/>')
    return out


def _caption(layout: _Layout, colours: dict, lines, legend, skip: int = 0) -> tuple[list[str], float, float]:
    """Rows of text and the legend's swatches under the board, after ``skip`` empty rows; returns
    (the elements, the height of all the rows, the width their text needs, about)."""
    out, size = [], layout.font * 1.15
    lines = [line for line in lines if line]
    x, row = layout.cp * 0.3, size * 1.3
    for i, line in enumerate(lines):
        y = layout.height + row * (skip + i + 1)
        out.append(f'<text class="caption" x="{_f(x)}" y="{_f(y)}" fill="{colours["text"]}" '
                   f'font-size="{_f(size)}">{escape(line)}</text>')
    for i, (name, rgb, alpha) in enumerate(legend):
        y = layout.height + row * (skip + len(lines) + i + 1)
        out.append(f'<rect class="swatch" x="{_f(x)}" y="{_f(y - size * 0.85)}" width="{_f(size)}" height="{_f(size)}" '
                   f'fill="{_hex_colour(rgb)}" fill-opacity="{min(float(alpha) * 2, 1.0):.2f}" '
                   f'stroke="{colours["text"]}" stroke-width="0.5"/>')
        out.append(f'<text class="legend" x="{_f(x + size * 1.5)}" y="{_f(y)}" fill="{colours["text"]}" '
                   f'font-size="{_f(size)}">{escape(name)}</text>')
    rows = skip + len(lines) + len(legend)
    widest = max([x + 0.56 * size * len(line) for line in lines] +
                 [x + size * 1.5 + 0.56 * size * len(name) for name, _, _ in legend] + [0.0]) + x
    return out, (row * rows + size * 0.6) if rows else 0.0, widest


def _document(layout: _Layout, body: list[str], caption_height: float, caption_width: float, title: str) -> str:
    width, height = max(layout.width, caption_width), layout.height + caption_height
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_f(width)} {_f(height)}" '
            f'width="{_f(width)}" height="{_f(height)}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" '
            f'font-size="{_f(layout.font)}">')
    return "\n".join([head, f"<title>{escape(title)}</title>", *body, "</svg>"]) + "\n"


def render_svg(kind: str, H: int, W: int, on_board, stones, *, overlays=(), last_move: int = -1,
               cell_px: float | None = None, coords: bool = True, theme: str = "light", caption=(),
               legend=(), title: str = "", legal=None, hint: int = -1, clickable: bool = False) -> str:
    """The position as an SVG document (a ``str``).

    ``stones``: 0 empty, 1 black, 2 white, anything else a neutral stone. ``overlays``:
    ``(mask, (r, g, b), alpha)`` tints under the stones, as :func:`render.render_rgb` takes them;
    ``legend``: ``(name, (r, g, b), alpha)`` swatches under the board (a game's ``tints``);
    ``caption``: lines of text under the board (the header and the score); ``theme``: ``"light"``
    or ``"dark"``. For a page people play on: ``legal`` (a mask over the cells) marks the legal
    cells with small rings (``class="legal"``), ``hint`` rings one cell (``class="hint"``), and
    ``clickable`` lays a transparent ``class="hit"`` shape with ``data-cell`` and ``data-name`` over
    every cell, on top, to catch clicks.
    """
    colours = _check(kind, theme)
    H, W = int(H), int(W)
    n = H * W
    on = _flat(on_board, n, bool, "on_board")
    st = _flat(stones, n, np.int64, "stones")
    layout = _Layout(kind, H, W, on, float(cell_px or default_cell_px(H, W)), bool(coords))
    caption_elements, caption_height, caption_width = _caption(layout, colours, caption, legend)
    body = _board(layout, colours) + _position(layout, colours, st, overlays, int(last_move)) + caption_elements
    body += _play_marks(layout, colours, legal, int(hint), bool(clickable))
    return _document(layout, body, caption_height, caption_width, title)


def _play_marks(layout: _Layout, colours: dict, legal, hint: int, clickable: bool) -> list[str]:
    out = []
    n, on = layout.on.size, layout.on
    if legal is not None:
        for k in np.flatnonzero(_flat(legal, n, bool, "legal") & on):
            out.append(f'<circle class="legal" data-cell="{k}" cx="{_f(layout.cx[k])}" cy="{_f(layout.cy[k])}" '
                       f'r="{_f(0.12 * layout.cp)}" fill="none" stroke="{colours["label"]}" stroke-opacity="0.55" '
                       f'stroke-width="{_f(max(1.0, layout.cp / 36))}"/>')
    if 0 <= hint < n and on[hint]:
        out.append(f'<circle class="hint" data-cell="{hint}" data-name="{layout.name(hint)}" cx="{_f(layout.cx[hint])}" '
                   f'cy="{_f(layout.cy[hint])}" r="{_f(layout.stone_r * 0.8)}" fill="none" stroke="#1e90ff" '
                   f'stroke-width="{_f(max(2.0, layout.cp / 14))}"/>')
    if clickable:
        for k in np.flatnonzero(on):
            out.append(layout.cell_shape(k, f'class="hit" data-cell="{k}" data-name="{layout.name(k)}" '
                                            f'fill="#000000" fill-opacity="0" style="cursor:pointer"'))
    return out


def animate_svg(kind: str, H: int, W: int, on_board, frames, *, seconds_per_frame: float = 0.6,
                cell_px: float | None = None, coords: bool = True, theme: str = "light", legend=(),
                title: str = "") -> str:
    """``frames``: ``(stones, overlays, last_move, caption)`` per position, shown in turn, looping.

    Each distinct element of the frames (a stone on a cell, a tint, a caption line) is written once,
    in a ``<g class="shown">`` whose ``data-frames`` lists the frames it is in and whose visibility a
    discrete SMIL animation switches at those frames' slots of the loop; the board and the legend
    are drawn once. A stone that stays put costs one element, so a game's animation grows with its
    moves, not with moves times stones."""
    colours = _check(kind, theme)
    if seconds_per_frame <= 0:
        raise ValueError(f"animate_svg: seconds_per_frame must be > 0, got {seconds_per_frame!r}")
    H, W = int(H), int(W)
    n = H * W
    on = _flat(on_board, n, bool, "on_board")
    frames = list(frames)
    if not frames:
        raise ValueError("animate_svg: no frames")
    layout = _Layout(kind, H, W, on, float(cell_px or default_cell_px(H, W)), bool(coords))
    count = len(frames)
    lines = max(len([line for line in frame[3] if line]) for frame in frames)  # the captions' rows
    legend_elements, caption_height, caption_width = _caption(layout, colours, (), legend, skip=lines)
    presence: dict[str, list[int]] = {}  # element -> the frames it is in (dicts keep the drawing order)
    for index, (stones, overlays, last_move, caption) in enumerate(frames):
        st = _flat(stones, n, np.int64, "stones")
        captions, _, width = _caption(layout, colours, caption, ())
        caption_width = max(caption_width, width)
        for element in _position(layout, colours, st, overlays, int(last_move)) + captions:
            presence.setdefault(element, []).append(index)
    body = _board(layout, colours) + legend_elements
    total = _f(count * seconds_per_frame)
    for element, shown in presence.items():
        listed = " ".join(map(str, shown))
        if len(shown) == count:
            body.append(f'<g class="shown" data-frames="{listed}">{element}</g>')
            continue
        values, times, previous, inside = [], [], None, set(shown)
        for index in range(count):  # the frames where the element appears or goes
            now = "visible" if index in inside else "hidden"
            if now != previous:
                values.append(now)
                times.append(f"{index / count:.6f}".rstrip("0").rstrip(".") or "0")
                previous = now
        body.append(f'<g class="shown" data-frames="{listed}" visibility="{values[0]}">'
                    f'<animate attributeName="visibility" calcMode="discrete" dur="{total}s" '
                    f'repeatCount="indefinite" values="{";".join(values)}" keyTimes="{";".join(times)}"/>'
                    f'{element}</g>')
    return _document(layout, body, caption_height, caption_width, title)
