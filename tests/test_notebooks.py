"""The notebooks of ``notebooks/`` run from top to bottom, with the small settings they read from
``TERRITORY_NOTEBOOK_SMALL=1`` (a few minutes in all); the committed copies keep the outputs of a
full run. A notebook that raises fails here with the cell at fault."""
import os
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))


def test_there_are_the_four_notebooks():
    assert [p.name for p in NOTEBOOKS] == ["01_quickstart.ipynb", "02_agents_and_arena.ipynb",
                                           "03_self_play_training.ipynb", "04_integrations.ipynb"]


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path, tmp_path, monkeypatch):
    monkeypatch.setenv("TERRITORY_NOTEBOOK_SMALL", "1")
    monkeypatch.setenv("TERRITORY_ENVS_QUIET", "1")
    notebook = nbformat.read(path, as_version=4)
    # run in a scratch folder: whatever a notebook writes (records, runs) stays out of the repo
    client = nbclient.NotebookClient(notebook, timeout=900, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    errors = [out for cell in notebook.cells if cell.cell_type == "code" for out in cell.get("outputs", [])
              if out.get("output_type") == "error"]
    assert not errors
    assert all(cell.get("execution_count") for cell in notebook.cells if cell.cell_type == "code" and cell.source)
