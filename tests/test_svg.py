"""Vector pictures: every game's SVG, in both themes, is valid XML whose stones are the board's and
the numpy picture's; animations have a frame per position; the envs' render_mode="svg"."""
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import territory_envs
from territory_envs.core.render import _geometry, render_rgb
from territory_envs.core.svg import THEMES, render_svg

from tests.positions import random_game

SVG = "{http://www.w3.org/2000/svg}"
GAMES = {"lin": {"board_size": 7}, "linage": {"board_size": 7}, "lifeline": {"board_size": 4}, "asli": {"board_size": 7}}
KINDS = {1: "black", 2: "white"}


def played(name, moves=18, seed=0):
    return random_game(territory_envs.make_game(name, **GAMES[name]), moves, seed)


def svg_stones(root) -> dict:
    """``{cell: "black" | "white" | "neutral"}`` of the stone circles."""
    out = {}
    for circle in root.iter(f"{SVG}circle"):
        classes = circle.get("class", "").split()
        if "stone" in classes:
            out[int(circle.get("data-cell"))] = classes[1]
    return out


def board_stones(state) -> dict:
    board = state._display_board()
    on = state.game.geometry.on_board
    return {int(k): KINDS.get(int(board[k]), "neutral") for k in np.flatnonzero((board != 0) & on)}


def picture_stones(state) -> dict:
    """The stones the numpy picture shows: a cell whose colour a quarter cell off its centre (off
    the grid lines) is brown (wood, a hexagon's fill) is empty, else its centre's grey says which."""
    geometry = state.game.geometry
    cp = 48
    picture = render_rgb(geometry.kind, *geometry.shape, geometry.on_board, state._display_board(), cell_px=cp)
    g = _geometry(geometry.kind, *geometry.shape, np.asarray(geometry.on_board, bool), cp, True)
    out = {}
    for k in np.flatnonzero(geometry.on_board):
        y, x = int(g.cy[k] - g.pad), int(g.cx[k] - g.pad)
        r, _, b = (int(v) for v in picture[y + cp // 4, x + cp // 4])
        if r - b > 40:
            continue
        mean = float(picture[y, x].mean())  # centres: black about 65, white 210, neutral 145
        out[int(k)] = "black" if mean < 100 else "white" if mean > 180 else "neutral"
    return out


@pytest.mark.parametrize("theme", sorted(THEMES))
@pytest.mark.parametrize("name", sorted(GAMES))
def test_svg_is_valid_xml_with_the_boards_stones_coordinates_and_legend(name, theme):
    state = played(name)
    text = state.render_svg(theme=theme)
    root = ET.fromstring(text)  # valid XML
    assert root.tag == f"{SVG}svg" and float(root.get("width")) > 0
    assert svg_stones(root) == board_stones(state) == picture_stones(state)
    assert len(board_stones(state)) >= 6  # the game put stones down: the comparison has substance
    coords = {t.text for t in root.iter(f"{SVG}text") if t.get("class") == "coord"}
    assert {"a", "1"} <= coords
    legend = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "legend"]
    assert legend == [name for name, _, _ in state.tints]
    last = [c for c in root.iter(f"{SVG}circle") if c.get("class") == "last-move"]
    if state._last_cell() >= 0:
        assert len(last) == 1 and int(last[0].get("data-cell")) == state._last_cell()
        assert last[0].get("data-name") == state.game.action_to_notation(state._last_cell())
    page = next(r for r in root.iter(f"{SVG}rect") if r.get("class") == "page")
    assert page.get("fill") == THEMES[theme]["page"]


def test_tints_cover_the_cells_of_the_games_overlays():
    state = played("lin", moves=30)
    root = ET.fromstring(state.render_svg())
    for index, (mask, _, _) in enumerate(state.overlays()):
        tinted = [e for e in root if e.get("data-tint") == str(index)]
        assert len(tinted) == int((np.asarray(mask, bool) & state.game.geometry.on_board).sum())
    assert not [e for e in ET.fromstring(state.render_svg(overlays=False)) if e.get("data-tint") is not None]


def visible_at(group, frame: int, count: int) -> bool:
    """Whether an animated element is shown at ``frame`` by its discrete animation's keyTimes."""
    animate = group.find(f"{SVG}animate")
    if animate is None:
        return True
    times = [float(t) for t in animate.get("keyTimes").split(";")]
    values = animate.get("values").split(";")
    now = frame / count + 1e-6  # keyTimes are written to 6 decimals
    return [v for t, v in zip(times, values) if t <= now][-1] == "visible"


@pytest.mark.parametrize("name", ["lin", "lifeline"])
def test_animation_shows_each_positions_stones_at_its_frame(name):
    state = played(name, moves=10)
    root = ET.fromstring(state.animate_svg(seconds_per_frame=0.5))
    positions = state.positions()
    count = len(positions)
    assert count == len(state.history) + 1 and positions[-1] == state and not positions[0].history
    groups = [g for g in root.iter(f"{SVG}g") if g.get("class") == "shown"]
    for frame, position in enumerate(positions):
        shown = [g for g in groups if visible_at(g, frame, count)]
        listed = [g for g in groups if str(frame) in g.get("data-frames").split()]
        assert shown == listed
        stones = {}
        for g in shown:
            stones.update(svg_stones(g))
        assert stones == board_stones(position)
    # a stone that stays put is one element, not one per frame
    assert len([c for c in root.iter(f"{SVG}circle") if "stone" in (c.get("class") or "")]) <= 2 * len(state.history)


def test_gif_of_a_game_where_pillow_is_installed(tmp_path):
    image = pytest.importorskip("PIL.Image")
    state = played("asli", moves=6)
    state.save_gif(tmp_path / "game.gif", seconds_per_frame=0.2, cell_px=16)
    with image.open(tmp_path / "game.gif") as gif:
        assert gif.n_frames == len(state.history) + 1


def test_render_mode_svg_in_the_aec_and_single_agent_envs():
    import gymnasium
    env = territory_envs.make("lin", board_size=5, render_mode="svg")
    env.reset(seed=0)
    assert ET.fromstring(env.render()).tag == f"{SVG}svg"
    single = gymnasium.make("territory_envs/Lin-v0", board_size=5, render_mode="svg")
    single.reset(seed=0)
    assert ET.fromstring(single.render()).tag == f"{SVG}svg"
    assert played("lin")._repr_svg_().startswith("<svg")


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="theme"):
        render_svg("square", 3, 3, np.ones(9, bool), np.zeros(9), theme="sepia")
    with pytest.raises(ValueError, match="kind"):
        render_svg("triangle", 3, 3, np.ones(9, bool), np.zeros(9))
    with pytest.raises(ValueError, match="stones"):
        render_svg("square", 3, 3, np.ones(9, bool), np.zeros(8))
    with pytest.raises(ValueError, match="seconds_per_frame"):
        played("lin", moves=2).animate_svg(seconds_per_frame=0)
