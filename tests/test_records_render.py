"""Game records (write, replay, refusal of corrupt or truncated records) and rendering."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from territory_envs import make_game, read_record, write_record
from territory_envs.core.geometry import hexhex, square
from territory_envs.core.render import render_ansi, render_rgb


def finished_game(seed=0, **options):
    game = make_game("lin", board_size=5, line_length=4, **options)
    state = game.new_state()
    rng = np.random.default_rng(seed)
    while not state.is_terminal():
        state.apply(int(rng.choice(state.legal_actions())))
    return state


def test_record_text_is_readable_and_replays():
    state = finished_game(komi=2)
    text = write_record(state)
    lines = text.splitlines()
    assert lines[1] == "game: lin" and "komi: 2" in lines and "moves:" in lines
    assert lines[-1].startswith("result: ") and "wins" in lines[-1]
    assert read_record(text) == state
    numbered = text.replace("moves:\n", "moves:\n# a comment\n", 1)
    moves_at = numbered.splitlines().index("moves:")
    parts = numbered.splitlines()
    parts[moves_at + 2] = "1. " + parts[moves_at + 2] + "   # first move"
    assert read_record("\n".join(parts)) == state


def test_record_of_an_unfinished_game_and_swapped_sides():
    game = make_game("lin", board_size=7, line_length=5)
    state = game.new_state(swap_sides=True).apply(24).apply(10)
    text = write_record(state)
    assert "first_side: player_1" in text and text.rstrip().endswith("result: ongoing")
    assert read_record(text) == state


def corrupt(text, index_from_end, replacement):
    lines = text.splitlines()
    lines[len(lines) - index_from_end] = replacement
    return "\n".join(lines) + "\n", len(lines) - index_from_end + 1


@pytest.mark.parametrize("damage,message", [
    ("zz9", "not a point of this 5x5 board"),  # two-letter columns are notation, off this board
    ("a1a1", "not a move"),
    ("9a", "not a move"),
])
def test_corrupt_move_is_refused_with_its_line(damage, message):
    text = write_record(finished_game())
    bad, line_no = corrupt(text, 3, damage)
    with pytest.raises(ValueError, match=f"line {line_no}:.*{message}"):
        read_record(bad)


def test_illegal_move_is_refused_with_its_line():
    state = finished_game()
    text = write_record(state)
    lines = text.splitlines()
    first_move = lines.index("moves:") + 1
    lines[first_move + 1] = lines[first_move]  # the same point twice: occupied
    with pytest.raises(ValueError, match=f"line {first_move + 2}:.*illegal"):
        read_record("\n".join(lines))


def test_truncated_record_is_refused():
    text = write_record(finished_game())
    lines = text.splitlines()
    with pytest.raises(ValueError, match="truncated.*no 'result:'"):
        read_record("\n".join(lines[:-3]))
    with pytest.raises(ValueError, match=f"line {len(lines) - 2}:.*lead to result"):
        read_record("\n".join(lines[:-3] + [lines[-1]]))  # moves missing: the result does not follow
    with pytest.raises(ValueError, match="no 'moves:'"):
        read_record("\n".join(lines[:3]))


def test_bad_header_is_refused_with_its_line():
    text = write_record(finished_game())
    with pytest.raises(ValueError, match="line 3:.*board_size"):
        read_record(text.replace("board_size: 5", "board_size: 6"))
    with pytest.raises(ValueError, match="line 2:.*unknown game"):
        read_record(text.replace("game: lin", "game: chess"))
    with pytest.raises(ValueError, match="line .*after the result"):
        read_record(text + "c3\n")


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 30), st.booleans())
def test_any_prefix_of_any_game_round_trips(seed, length, swap):
    game = make_game("lin", board_size=5, line_length=3, komi=1)
    state = game.new_state(swap_sides=swap)
    rng = np.random.default_rng(seed)
    for _ in range(length):
        if state.is_terminal():
            break
        state.apply(int(rng.choice(state.legal_actions())))
    assert read_record(write_record(state)) == state


def test_ansi_board_has_coordinates_side_to_move_and_scores():
    state = make_game("lin", board_size=5, line_length=4).new_state().apply(12)
    text = state.render_ansi()
    assert "a b c d e" in text and "white (player_1) to play" in text and "score" in text
    assert text.splitlines()[4].split()[3] == "X"  # row 3, column c


def test_rgb_square_draws_stones_where_they_are():
    geo = square(9)
    stones = np.zeros(81, np.int8)
    stones[geo.from_notation("e5")] = 1
    stones[geo.from_notation("a1")] = 2
    img = render_rgb("square", 9, 9, geo.on_board, stones, cell_px=32, coords=False)
    assert img.dtype == np.uint8 and img.shape == (288, 288, 3)
    cy, cx = 4 * 32 + 16, 4 * 32 + 16
    assert img[cy, cx].max() < 90  # black stone at the centre point
    assert img[8 * 32 + 16, 16].min() > 170  # white stone bottom-left
    empty = render_rgb("square", 9, 9, geo.on_board, np.zeros(81, np.int8), cell_px=32, coords=False)
    assert (empty[cy - 6:cy + 6, cx - 6:cx + 6] != img[cy - 6:cy + 6, cx - 6:cx + 6]).any()


def test_rgb_overlay_tints_under_stones():
    geo = square(5)
    mask = np.zeros(25, bool)
    mask[0] = True
    plain = render_rgb("square", 5, 5, geo.on_board, np.zeros(25, np.int8), coords=False, cell_px=32)
    tinted = render_rgb("square", 5, 5, geo.on_board, np.zeros(25, np.int8), coords=False, cell_px=32,
                        overlays=[(mask, (255, 0, 0), 0.5)])
    assert (tinted[4, 4].astype(int)[0] > plain[4, 4].astype(int)[0]) or tinted[4, 4, 1] < plain[4, 4, 1]
    assert (tinted[100:, 100:] == plain[100:, 100:]).all()


def test_hex_pictures_and_text():
    geo = hexhex(4)
    stones = np.zeros(geo.num_cells, np.int8)
    stones[geo.from_notation("d4")] = 1  # the centre cell
    img = render_rgb("hex", 7, 7, geo.on_board, stones)
    assert img.ndim == 3 and img.shape[2] == 3 and img.dtype == np.uint8
    text = render_ansi("hex", 7, 7, geo.on_board, stones)
    rows = [r for r in text.splitlines() if r.strip()]
    counts = [r.count(".") + r.count("X") for r in rows[:7]]
    assert counts == [4, 5, 6, 7, 6, 5, 4]
    assert "X" in rows[3]


def test_env_rgb_and_human_modes(capsys):
    from territory_envs import lin_v0
    env = lin_v0.env(board_size=5, line_length=4, render_mode="rgb_array")
    env.reset()
    tinted = env.render()
    assert tinted.shape[2] == 3
    plain = lin_v0.env(board_size=5, line_length=4, render_mode="rgb_array", render_overlays=False)
    plain.reset()
    assert plain.render().shape == tinted.shape and (plain.render() != tinted).any()
    with pytest.raises(ValueError, match="render_overlays"):
        lin_v0.env(render_overlays="yes")
    env = lin_v0.env(board_size=5, line_length=4, render_mode="human")
    env.reset()
    assert env.render() is None
    assert "a b c d e" in capsys.readouterr().out




@pytest.mark.parametrize("game", ["lin", "linage", "lifeline", "asli"])
def test_corrupt_state_dicts_are_refused_naming_the_field(game):
    import territory_envs
    state = make_game(game).new_state()
    good = state.to_dict()
    for field in ("board", "to_move", "history"):
        broken = dict(good)
        del broken[field]
        with pytest.raises(ValueError, match=field):
            territory_envs.state_from_dict(broken)
    with pytest.raises(ValueError, match="board"):
        territory_envs.state_from_dict({**good, "board": [3] * len(good["board"])})
    with pytest.raises(ValueError, match="to_move"):
        territory_envs.state_from_dict({**good, "to_move": 2})
    with pytest.raises(ValueError, match="history"):
        territory_envs.state_from_dict({**good, "history": [10**6]})
    with pytest.raises(ValueError):
        territory_envs.state_from_json("[1, 2]")


def test_default_pictures_are_large_enough_to_read_and_labels_are_lower_case():
    from territory_envs.core.render import _text_mask
    for kind, geo in (("square", square(9)), ("hex", hexhex(5))):
        img = render_rgb(kind, *geo.shape, geo.on_board, np.zeros(geo.num_cells, np.int8))
        assert min(img.shape[:2]) >= 500
    assert not (_text_mask("a", 1) == _text_mask("A", 1)).all()  # the notation's letters, not capitals


def test_cell_text_writes_in_the_cells_and_is_checked():
    geo = square(5)
    plain = render_rgb("square", 5, 5, geo.on_board, np.zeros(25, np.int8))
    names = [geo.to_notation(k) for k in range(25)]
    labelled = render_rgb("square", 5, 5, geo.on_board, np.zeros(25, np.int8), cell_text=names)
    assert (labelled != plain).any()
    with pytest.raises(ValueError, match="cell_text"):
        render_rgb("square", 5, 5, geo.on_board, np.zeros(25, np.int8), cell_text=names[:3])


def test_labels_use_a_real_font_where_pillow_is_installed_and_the_bitmap_font_otherwise(monkeypatch):
    pytest.importorskip("PIL")
    from territory_envs.core import render
    alpha = render._font_alpha("a9", 2)
    assert alpha is not None and ((alpha > 0.05) & (alpha < 0.95)).any()  # antialiased edges
    board = (np.ones(25, bool), np.zeros(25, np.int8))
    render._GEO_CACHE.clear()
    with_font = render.render_rgb("square", 5, 5, *board, cell_px=40)
    monkeypatch.setattr(render, "_font_alpha", lambda text, scale: None)  # as where Pillow is missing
    render._GEO_CACHE.clear()
    with_bitmap = render.render_rgb("square", 5, 5, *board, cell_px=40)
    render._GEO_CACHE.clear()
    assert with_font.shape == with_bitmap.shape
    differs = (with_font != with_bitmap).any(axis=2)
    margin = 12  # the labels are in the margin; the board inside is the same picture
    assert differs[:margin].any() and not differs[margin + 8:-margin - 8, margin + 8:-margin - 8].any()
