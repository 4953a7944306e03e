"""Every code block of the README runs, and so does every inline one-liner that makes an env.

Python blocks run as they are, in order, in one scratch folder (a later block may use what an
earlier one made, as a reader's session would). Shell blocks run command by command with the
console scripts of this environment; each command that plays or trains for long runs with the
shorter settings of ``SHORTER`` (the same command with fewer games, minutes or playouts), and
the few commands that cannot run here are listed in ``NOT_RUN`` with the reason and the place
where they are checked instead. A block or command that no rule covers fails the test, so a new
block of the README is run from the day it is written."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
BIN = Path(sys.executable).parent

# the commands not run here, and why
NOT_RUN = {
    ".venv/bin/python -m pytest": "the test command itself: .ci/run runs it as the README writes it",
    "agents.web --port": "serves until stopped: tests/test_web.py starts the same server and plays on it",
    "--ray-address auto": "needs a running Ray cluster: tests/test_ray_selfplay.py trains on a two-node cluster in "
                          "CI's RLlib environment",
}

# (pattern, replacement): the same command, shorter (applied to every shell command)
SHORTER = [
    (r"--minutes \d+(\.\d+)?", "--minutes 0.01"),            # one iteration
    (r"--games-per-pair \d+", "--games-per-pair 2"),
    (r"(--agents \S*)mcts:256", r"\1mcts:16"),
    (r"(--agents \S*)mcts:64", r"\1mcts:8"),
]
# flags added to every training command: a tiny network and few games, so that one iteration and
# the evaluation at the end of the run take seconds
TRAIN_SHORT = ["--games-per-iteration", "2", "--simulations", "4", "--channels", "8", "--blocks", "1",
               "--eval-games", "2", "--workers", "0", "--no-progress"]
# what the person types in the play CLI
PLAY_INPUT = "hint\nquit\n"
# the file that `--config my_run.toml` names: the example of agents/az/config.py's docstring
MY_RUN = 'game = "lifeline"\nminutes = 20\n[options]\nboard_size = 5\n[selfplay]\nfull_simulations = 64\n'


def readme_blocks():
    """``(line, language, text)`` of every fenced block of the README."""
    blocks, lines = [], README.read_text().splitlines()
    i = 0
    while i < len(lines):
        opening = re.match(r"\s*```(\w*)\s*$", lines[i])
        if opening:
            indent = len(lines[i]) - len(lines[i].lstrip())
            j = i + 1
            while not lines[j].strip().startswith("```"):
                j += 1
            blocks.append((i + 1, opening[1], "\n".join(line[indent:] for line in lines[i + 1:j])))
            i = j
        i += 1
    return blocks


def shell_commands(text: str) -> list[str]:
    """The commands of a shell block: continuations joined, comments dropped."""
    joined = re.sub(r"\\\n\s*", " ", text)
    return [line.split(" #")[0].strip() for line in joined.splitlines()
            if line.strip() and not line.strip().startswith("#")]


def runnable(command: str) -> list[str] | None:
    """The argv that runs ``command`` here (None: not run, see NOT_RUN)."""
    if any(marker in command for marker in NOT_RUN):
        return None
    if command.startswith("python3 -m venv"):  # the set-up line: its last step is what it runs
        command = command.split("&&")[-1].strip().replace(".venv/bin/python", "python")
    if command.startswith("pip install"):
        return ["pip-install", *re.findall(r'"\.\[(\w+)\]"', command)]
    for pattern, replacement in SHORTER:
        command = re.sub(pattern, replacement, command)
    argv = command.split()
    if argv[0] in ("python", "python3"):
        argv[0] = sys.executable
    elif (BIN / argv[0]).exists():
        argv[0] = str(BIN / argv[0])
    else:
        raise AssertionError(f"README command {command!r}: no rule runs it (add one to tests/test_readme.py)")
    if "territory-train" in argv[0] or argv[1:3] == ["-m", "agents.az.train"]:
        if "--minutes" not in argv:
            argv += ["--minutes", "0.01"]
        shape = ("--channels", "--blocks")  # --init takes the network's shape from its checkpoint
        argv += [a for i, a in enumerate(TRAIN_SHORT) if "--init" not in argv
                 or not (a in shape or (i and TRAIN_SHORT[i - 1] in shape))]
    return argv


def extras() -> set:
    import tomllib
    return set(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"])


def run(argv, cwd, stdin=""):
    env = {**os.environ, "TERRITORY_ENVS_QUIET": "1", "PYTHONPATH": str(ROOT), "MPLBACKEND": "Agg"}
    done = subprocess.run(argv, cwd=cwd, env=env, input=stdin, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, f"{' '.join(argv)} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


@pytest.mark.slow
def test_every_block_of_the_readme_runs(tmp_path):
    (tmp_path / "my_run.toml").write_text(MY_RUN)
    ran = {"python": 0, "bash": 0}
    for line, language, text in readme_blocks():
        if language == "bibtex":
            assert "@software{territory_envs" in text
            continue
        if language == "python":
            run([sys.executable, "-c", text], tmp_path)
        elif language == "bash":
            for command in shell_commands(text):
                argv = runnable(command)
                if argv is None:
                    continue
                if argv[0] == "pip-install":  # the extras it names exist; this environment has the dev extra
                    assert set(argv[1:]) <= extras(), f"README line {line}: unknown extra in {command!r}"
                    continue
                out = run(argv, tmp_path, stdin=PLAY_INPUT if "agents.play" in command else "")
                if "agents.play" in command:
                    assert "hint (" in out, out[-2000:]
        else:
            raise AssertionError(f"README line {line}: a ```{language} block that no rule runs")
        ran[language] += 1
    assert ran["python"] >= 5 and ran["bash"] >= 3
    assert (tmp_path / "runs" / "lin" / "latest.pt").is_file() and (tmp_path / "arena_results" / "ratings.csv").is_file()


# inline code that makes an env or a game from literal arguments, e.g. `gymnasium.make("territory_envs/Lin-v0", ...)`
ONE_LINER = re.compile(r"`((?:gymnasium\.make(?:_vec)?|territory_envs\.(?:vector\.)?make(?:_vec|_game)?)\([^`*]*\))`")


def test_the_readme_one_liners_run():
    import gymnasium  # noqa: F401  (the names the one-liners use)
    import territory_envs  # noqa: F401
    found = ONE_LINER.findall(README.read_text())
    assert any(text.startswith("gymnasium.make_vec") for text in found) and len(found) >= 4
    for text in found:
        made = eval(text)
        made.reset(seed=0) if hasattr(made, "reset") else made.new_state()
        made.close() if hasattr(made, "close") else None
