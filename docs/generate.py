"""Write the per-game pages ``docs/games/<game>.md`` from the env docstrings, the registry and the
game objects, and their pictures: ``docs/images/<game>.png`` from ``render_mode="rgb_array"``, and
``<game>.svg``, ``<game>-dark.svg`` and the animation ``<game>-game.svg`` from ``render_svg`` and
``animate_svg``.

::

    python docs/generate.py            # rewrite the pages and pictures
    python docs/generate.py --check    # exit 1 if a page differs from what the code says

``tests/test_docs_pages.py`` runs the check, so a page cannot drift from its env.
"""
from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

import numpy as np

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS.parent))

from territory_envs import game_names, make_game, registry  # noqa: E402
from territory_envs.core.declaration import declared  # noqa: E402

VERSIONS = {"v0": "the first version: the rules of `docs/rules/`, read as `docs/rulings.md` decides"}


def rst_table(lines: list[str]) -> list[list[str]]:
    """The rows of a reStructuredText simple table (border lines of ``=``), each cell's lines joined;
    a line whose first column is blank continues the row above."""
    borders = [i for i, line in enumerate(lines) if line.strip() and set(line.strip()) <= {"=", " "}]
    starts = [k for k, ch in enumerate(lines[borders[0]]) if ch == "=" and (k == 0 or lines[borders[0]][k - 1] == " ")]
    body = [line for i, line in enumerate(lines) if borders[0] < i < borders[-1] and i not in borders]
    rows: list[list[str]] = []
    for line in body:
        cells = [line[a:b].strip() for a, b in zip(starts, starts[1:] + [None])]
        if cells[0] or not rows:
            rows.append(cells)
        else:
            rows[-1] = [f"{old} {new}".strip() for old, new in zip(rows[-1], cells)]
    return rows


def docstring_parts(doc: str):
    """(intro paragraphs, the facts table's rows, the closing paragraph) of an env docstring."""
    lines = doc.strip("\n").splitlines()
    first_border = next(i for i, line in enumerate(lines) if line.startswith("=="))
    intro = "\n".join(lines[2:first_border]).strip()  # after the title line and its blank line
    borders = [i for i, line in enumerate(lines) if line.startswith("==")]
    facts = rst_table(lines[borders[0]:borders[1] + 1])
    closing = "\n".join(lines[borders[-1] + 1:]).strip()
    return intro, facts, closing


def markdown_text(text: str) -> str:
    """RST inline literals and line breaks as Markdown."""
    return " ".join(text.replace("``", "`").split())


def page(name: str) -> str:
    game = make_game(name)
    entry = registry()[name]
    declaration = declared(name)
    module = importlib.import_module(declaration.env_module)
    intro, facts, closing = docstring_parts(module.__doc__)
    h, w, c = game.obs_shape
    title = declaration.title
    moves = declaration.picture_moves  # random moves before the picture
    specials = ", ".join(f"`{s}` ({h * w + k})" for k, s in enumerate(entry["special_actions"])) or "none"
    out = [f"# {title}", "",
           "<!-- written by docs/generate.py from the env docstring and the game: edit those, then rerun it -->", "",
           markdown_text(intro), "",
           f"![{title}: a position after {moves} random moves, default options](../images/{name}.png)", "",
           f"*A position after {moves} seeded random moves, default options (`render_mode=\"rgb_array\"`).*",
           "", "| tint in the picture | what it shows |", "|---|---|"]
    out += [f"| ![{what}](../images/{name}-tint-{k}.png) | {what} |" for k, (what, _, _) in enumerate(game.state_class.tints)]
    out += ["", "Stones: black (first side) dark, white (second side) light, neutral grey; a small dot marks "
            "the last move. Labels give the notation of [`docs/notation.md`](../notation.md).", "",
            "The same game as vector pictures: the position in the light and dark themes "
            "(`state.render_svg(theme=...)`, or `render_mode=\"svg\"`), and every move up to it as one "
            "looping animation (`state.animate_svg()`; `state.save_gif(path)` writes a GIF where Pillow is "
            "installed). In Jupyter a state shows itself as its picture.", "",
            f"![{title} in the light theme](../images/{name}.svg) ![{title} in the dark theme](../images/{name}-dark.svg)", "",
            f"![{title}: the game as an animation](../images/{name}-game.svg)", "",
            "As text (`render_mode=\"ansi\"`): " + markdown_text(game.explain()), "",
            f"The full rules: [`docs/rules/{name}.txt`](../rules/{name}.txt), read as "
           "[`docs/rulings.md`](../rulings.md) decides.", "",
           "| | |", "|---|---|",
           f"| Import | `from territory_envs import {entry['env'].split('.')[-1]}`; "
           f"`{entry['env'].split('.')[-1]}.env()` |",
           f"| Gymnasium | `gymnasium.make(\"{declaration.gym_id}\")`, `gymnasium.make_vec(\"{declaration.gym_id}\", num_envs=...)` |",
           f"| Batched | `territory_envs.vector.make_vec(\"{name}\", num_envs)` |",
           "| Agents | `player_0`, `player_1` |",
           f"| Sides | {', '.join(entry['sides'])} |",
           f"| Action space (default options) | `Discrete({game.num_actions})` |",
           f"| Special actions | {specials} |",
           f"| Observation (default options) | `int8 ({h}, {w}, {c})`, values {int(game.obs_low.min())} to "
           f"{int(game.obs_high.max())} |",
           f"| Action mask | `int8 ({game.num_actions},)` |",
           f"| Default options | {', '.join(f'`{k}={v!r}`' for k, v in game.options.items())} |", "",
           "## The env in detail", "", "| | |", "|---|---|"]
    out += [f"| {label} | {markdown_text(text)} |" for label, text in facts]
    out += ["", "## Observation planes", "",
            "From the observing agent's point of view, channels last.", "",
            "| index | name | values | meaning |", "|---|---|---|---|"]
    out += [f"| {k} | `{p.name}` | {p.low}..{p.high} | {markdown_text(p.description)} |"
            for k, p in enumerate(game.planes)]
    out += ["", "## Guarantees", "", markdown_text(closing), "", "## Version history", ""]
    out += [f"- `{name}_{v}`: {text}." for v, text in VERSIONS.items()]
    return "\n".join(out) + "\n"


def tint_swatch(game, rgb, alpha) -> np.ndarray:
    """A 24 x 24 swatch: the tint on an empty cell of the board's background."""
    from territory_envs.core import render
    ground = render._WOOD if game.geometry.kind == "square" else render._HEX_FILL
    colour = ground * (1 - alpha) + np.asarray(rgb, dtype=np.float32) * alpha
    swatch = np.broadcast_to(colour, (24, 24, 3)).copy()
    swatch[[0, -1], :] = swatch[:, [0, -1]] = render._INK  # an outline, so light tints show
    return np.clip(swatch + 0.5, 0, 255).astype(np.uint8)


def notation_picture(kind: str) -> np.ndarray:
    """An empty board with every cell's name written in it: square 5x5, hexhex of side 3."""
    from territory_envs.core.geometry import hexhex, square
    from territory_envs.core.render import render_rgb
    geo = square(5) if kind == "square" else hexhex(3)
    h, w = geo.shape
    names = [geo.to_notation(k) if geo.on_board[k] else "" for k in range(h * w)]
    return render_rgb(geo.kind, h, w, geo.on_board, np.zeros(h * w, dtype=np.int8), cell_text=names)


def played(name: str):
    """The seeded random game of the pages' pictures."""
    game = make_game(name)
    state = game.new_state()
    rng = np.random.default_rng(0)
    for _ in range(declared(name).picture_moves):
        if state.terminal:
            break
        state.apply(int(rng.choice(state.legal_actions())))
    return state


def save_png(path: Path, image: np.ndarray) -> None:
    import matplotlib.image
    matplotlib.image.imsave(path, image)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="write or check the per-game pages of docs/games/")
    parser.add_argument("--check", action="store_true", help="compare the pages only; exit 1 on a difference")
    args = parser.parse_args(argv)
    stale = []
    for name in game_names():
        path = DOCS / "games" / f"{name}.md"
        text = page(name)
        if args.check:
            if not path.exists() or path.read_text() != text:
                stale.append(str(path.relative_to(DOCS.parent)))
            continue
        path.parent.mkdir(exist_ok=True)
        path.write_text(text)
        (DOCS / "images").mkdir(exist_ok=True)
        state = played(name)
        save_png(DOCS / "images" / f"{name}.png", state.render_rgb())
        (DOCS / "images" / f"{name}.svg").write_text(state.render_svg(theme="light"))
        (DOCS / "images" / f"{name}-dark.svg").write_text(state.render_svg(theme="dark"))
        (DOCS / "images" / f"{name}-game.svg").write_text(state.animate_svg(seconds_per_frame=0.8))
        game = make_game(name)
        for k, (_, rgb, alpha) in enumerate(game.state_class.tints):
            save_png(DOCS / "images" / f"{name}-tint-{k}.png", tint_swatch(game, rgb, alpha))
    if not args.check:
        for kind in ("square", "hexhex"):
            save_png(DOCS / "images" / f"notation-{kind}.png", notation_picture(kind))
    if stale:
        print("stale pages (run python docs/generate.py): " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
