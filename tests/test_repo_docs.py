"""The repository explains itself: the rule texts, rulings and env contract live in docs/, and no
file points outside the repository."""
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def tracked_text_files():
    try:
        names = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    return [ROOT / n for n in names if n.endswith((".py", ".md", ".txt", ".toml", ".ipynb", ".cfg", ".yml")) or
            n.startswith(".ci/")]


def test_the_specification_is_in_the_repository():
    for game in ("lin", "linage", "lifeline", "asli"):
        assert (ROOT / "docs" / "rules" / f"{game}.txt").read_text().strip()
    assert "rulings" in (ROOT / "docs" / "spec.md").read_text()
    assert (ROOT / "docs" / "rulings.md").read_text().strip()


def test_no_file_points_outside_the_repository():
    # written in pieces, so that this file does not match itself
    outside = re.compile("|".join([r"\.\./" + "shared", "/" + "work/", "/" + r"home/\w+", "/tmp/" + "bash_jobs"]))
    offenders = [f"{p.relative_to(ROOT)}:{i}" for p in tracked_text_files() if p.exists()
                 for i, line in enumerate(p.read_text(errors="replace").splitlines(), 1) if outside.search(line)]
    assert not offenders, offenders


def test_every_docs_path_named_in_the_code_exists():
    named = set()
    for p in tracked_text_files():
        if p.exists():
            named.update(re.findall(r"docs/[\w./-]*\w", p.read_text(errors="replace")))
    missing = sorted(n for n in named if not (ROOT / n).exists())
    assert not missing, missing


def test_the_package_metadata_is_complete_and_the_version_written_once():
    """What an index and a type checker read: the installed version is territory_envs.__version__
    (pyproject reads it from there; the README's citation and the changelog's release agree), the
    SPDX license, Python 3.11 or later (tomllib), classifiers, and the py.typed markers."""
    import importlib.metadata
    import tomllib

    import territory_envs
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["dynamic"] == ["version"] and "version" not in project
    version = territory_envs.__version__
    assert importlib.metadata.version("territory-envs") == version
    assert f"version = {{{version}}}" in (ROOT / "README.md").read_text()
    assert f"## {version} " in (ROOT / "CHANGELOG.md").read_text()
    assert project["license"] == "MIT" and project["requires-python"] == ">=3.11"
    assert "Typing :: Typed" in project["classifiers"]
    for package in ("territory_envs", "agents"):
        assert (ROOT / package / "py.typed").is_file()
