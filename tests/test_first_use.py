"""The first use of a game says that its kernels compile; ``python -m territory_envs.warmup`` compiles
them ahead. Each check runs a fresh interpreter with its own numba cache folder."""
import os
import subprocess
import sys

import pytest

from territory_envs.core.compile_cache import kernels_cached
from territory_envs.registry import game_names


def run(code, cache_dir, quiet=False, module=False):
    env = {k: v for k, v in os.environ.items() if k != "TERRITORY_ENVS_QUIET"}
    env["NUMBA_CACHE_DIR"] = str(cache_dir)
    if quiet:
        env["TERRITORY_ENVS_QUIET"] = "1"
    argv = [sys.executable, "-m", *code.split()] if module else [sys.executable, "-c", code]
    return subprocess.run(argv, env=env, capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("name", game_names())
def test_an_empty_cache_is_announced_once_before_anything_compiles(name, tmp_path):
    # building the game compiles nothing, so this is quick even with an empty cache
    out = run(f"import territory_envs as t; t.make_game({name!r}); t.make_game({name!r}); "
              f"from territory_envs.vector import make_vec", tmp_path)
    assert out.returncode == 0, out.stderr
    lines = [line for line in out.stderr.splitlines() if "compiling" in line]
    assert len(lines) == 1, out.stderr
    assert name.capitalize() in lines[0] and "territory_envs.warmup" in lines[0]
    assert not os.listdir(tmp_path) or not any(f.endswith(".nbc") for _, _, fs in os.walk(tmp_path) for f in fs)


def test_the_notice_can_be_silenced(tmp_path):
    out = run("import territory_envs as t; t.make_game('lin')", tmp_path, quiet=True)
    assert out.returncode == 0 and "compiling" not in out.stderr
    code = ("import logging, territory_envs as t; logging.getLogger('territory_envs').setLevel(logging.WARNING); "
            "t.make_game('lin')")
    out = run(code, tmp_path)
    assert out.returncode == 0 and "compiling" not in out.stderr


@pytest.mark.slow
def test_warmup_fills_the_cache_and_later_runs_are_silent(tmp_path):
    out = run("territory_envs.warmup lin", tmp_path, module=True)
    assert out.returncode == 0, out.stderr
    assert "lin: compiling" in out.stdout and "compiled and cached" in out.stdout
    again = run("territory_envs.warmup lin", tmp_path, module=True)
    assert "loaded from the cache" in again.stdout
    quiet = run("import territory_envs as t; from territory_envs.vector import make_vec; "
                "e = t.make('lin'); e.reset(); make_vec('lin', 2).reset()", tmp_path)
    assert quiet.returncode == 0 and "compiling" not in quiet.stderr, quiet.stderr


@pytest.mark.slow
def test_warmup_in_parallel_processes_fills_the_cache_of_each_game(tmp_path):
    out = run("territory_envs.warmup lin linage --no-vector --jobs 2", tmp_path, module=True)
    assert out.returncode == 0, out.stderr
    assert "lin: compiling" in out.stdout and "linage: compiling" in out.stdout
    assert out.stdout.count("compiled and cached") == 2, out.stdout
    again = run("territory_envs.warmup lin linage --no-vector", tmp_path, module=True)
    assert again.stdout.count("loaded from the cache") == 2, again.stdout
    refused = run("territory_envs.warmup lin --jobs 0", tmp_path, module=True)
    assert refused.returncode == 2 and "--jobs" in refused.stderr


def test_warmup_refuses_an_unknown_game(tmp_path):
    out = run("territory_envs.warmup chess", tmp_path, module=True)
    assert out.returncode == 2 and "unknown game" in out.stderr


@pytest.mark.parametrize("name", game_names())
def test_the_cache_test_reads_numbas_index(name):
    # None would mean numba's internals moved and the notice went silent
    assert kernels_cached(name) in (True, False)
    assert kernels_cached(name, vector=True) in (True, False)
