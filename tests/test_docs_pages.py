"""The per-game pages of docs/games/ say what the code says: docs/generate.py rewrites them from the
env docstrings and the games, and its check fails when a page differs."""
import importlib.util
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def load_generator():
    spec = importlib.util.spec_from_file_location("docs_generate", ROOT / "docs" / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_pages_match_the_code():
    assert load_generator().main(["--check"]) == 0, "run: python docs/generate.py"


def test_the_check_sees_a_drifted_page(tmp_path, monkeypatch):
    generator = load_generator()
    shutil.copytree(ROOT / "docs" / "games", tmp_path / "games")
    page = tmp_path / "games" / "lifeline.md"
    page.write_text(page.read_text().replace("`legal`", "`legal_moves`"))
    monkeypatch.setattr(generator, "DOCS", tmp_path)
    assert generator.main(["--check"]) == 1


def test_every_plane_of_every_game_is_on_its_page():
    from territory_envs import make_game
    for name in ("lin", "linage", "lifeline", "asli"):
        text = (ROOT / "docs" / "games" / f"{name}.md").read_text()
        for k, plane in enumerate(make_game(name).planes):
            assert f"| {k} | `{plane.name}` |" in text
