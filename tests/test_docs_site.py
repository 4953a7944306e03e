"""The documentation site builds with mkdocs in strict mode: a broken link, a page missing from the
navigation or a bad anchor fails here (mkdocs.yml, docs/, BENCHMARKS.md and CHANGELOG.md)."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mkdocs")
pytest.importorskip("material")

ROOT = Path(__file__).resolve().parent.parent


def test_the_site_builds_with_warnings_as_errors(tmp_path):
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode == 0, done.stdout + done.stderr
    for page in ("index.html", "games/lin/index.html", "benchmarks/index.html", "changelog/index.html",
                 "notation/index.html", "architecture/index.html"):
        assert (tmp_path / page).exists(), page
    assert "images/lifeline.png" in (tmp_path / "games/lifeline/index.html").read_text()
