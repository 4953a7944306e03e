"""The layers point down: ``core`` imports no game and no registry, no module outside ``games/``
names a game, and the env package never imports the agents package (opponent specs are resolved
through the ``territory_envs.agents`` entry point)."""
import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "territory_envs"
GAMES = ("lin", "linage", "lifeline", "asli")


def imports(path: Path) -> set:
    """Every module ``path`` imports, relative imports written with their dots."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            out.add("." * node.level + (node.module or ""))
    return out


def test_core_imports_no_game_and_no_registry():
    for path in (PACKAGE / "core").glob("*.py"):
        for module in imports(path):
            if module.startswith(".") or module.startswith("territory_envs"):  # (numba has a registry too)
                assert "registry" not in module and "games" not in module, f"{path.name} imports {module}"


def test_only_the_games_packages_and_their_env_modules_name_a_game():
    allowed = {f"{g}_v0.py" for g in GAMES} | {"__init__.py"}  # the env modules; the registration of the four
    for path in PACKAGE.rglob("*.py"):
        if "games" in path.parts or (path.name in allowed and path.parent == PACKAGE):
            continue
        tree = ast.parse(path.read_text())
        named = {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and node.value in GAMES}
        named |= {m for m in imports(path) if any(m.endswith(f"games.{g}") or f"games.{g}." in m for g in GAMES)}
        assert not named, f"{path.relative_to(PACKAGE)} names {named}"


def test_the_env_package_never_imports_agents():
    for path in PACKAGE.rglob("*.py"):
        if path.name == "demo.py":  # the README's demo imports it in main(), never at import
            continue
        assert not any(m == "agents" or m.startswith("agents.") for m in imports(path)), path
    code = ("import sys, gymnasium, territory_envs; "
            "env = gymnasium.make('territory_envs/Lin-v0', board_size=5, opponent='greedy'); env.reset(seed=0); "
            "import territory_envs.demo; print('agents' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "True"  # greedy came from the agents package, through the entry point


def test_a_spec_string_opponent_comes_from_the_entry_point():
    import gymnasium

    import territory_envs  # noqa: F401 (registers the ids)
    env = gymnasium.make("territory_envs/Lin-v0", board_size=5, opponent="mcts:8")
    assert type(env.unwrapped.opponent).__module__ == "agents.mcts"
