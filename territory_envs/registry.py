"""The registered games by name: their rules (:class:`Game`) and their envs.

The table itself is :mod:`territory_envs.core.declaration`; a game joins it with
:func:`register_game` (the four games of the package do it in ``territory_envs/__init__.py``)."""
from __future__ import annotations

from .core.declaration import GameDeclaration, add_declaration, declared, declared_names, remove_declaration
from .core.game import Game
from .core.options import BoardDefault


def register_game(declaration: GameDeclaration) -> None:
    """Make a game known to every layer: ``make``, ``make_game``, ``make_vec``, state dicts and
    records, agents and the arena, ``gymnasium.make`` under ``declaration.gym_id``, and
    ``pettingzoo.make("aec" | "parallel", declaration.pettingzoo_id)``. Registering the same
    declaration again changes nothing; another game under a registered name, or anything but a
    :class:`GameDeclaration`, raises ``ValueError``."""
    add_declaration(declaration)
    from .single import register_envs
    register_envs()
    _register_with_pettingzoo(declaration)


def _register_with_pettingzoo(declaration: GameDeclaration) -> None:
    """``pettingzoo.make("aec", "territory_envs/lin-v0", **options)`` is ``make("lin", **options)``,
    and ``"parallel"`` its parallel env (PettingZoo 1.27's registry; older PettingZoo has none)."""
    import pettingzoo
    if not hasattr(pettingzoo, "register"):
        return
    for kind, maker in (("aec", "make"), ("parallel", "make_parallel")):
        if declaration.pettingzoo_id not in getattr(pettingzoo, f"{kind}_registry"):
            pettingzoo.register(kind, declaration.pettingzoo_id, f"{__name__}:{maker}", kwargs={"name": declaration.name})


def unregister_game(name: str) -> None:
    """Take game ``name`` out of the table (a test's game, say); its Gymnasium id stays registered
    with gymnasium, and ``gymnasium.make`` of it then raises the unknown game's ``ValueError``."""
    remove_declaration(name)


def game_names() -> list[str]:
    return declared_names()


def game_class(name: str) -> type[Game]:
    return declared(name).game_class


def make_game(name: str, **options) -> Game:
    """The rules of ``name`` with ``options`` (validated): a factory of states, no env around it."""
    return declared(name).game_class(**options)


def make(name: str, **options):
    """The AEC env of ``name`` (``territory_envs.<name>_v0.env(**options)`` for the four games)."""
    return declared(name).env_functions()[1](**options)


def make_parallel(name: str, **options):
    """The parallel env of ``name`` (``territory_envs.<name>_v0.parallel_env(**options)`` for the four games)."""
    return declared(name).env_functions()[2](**options)


def registry() -> dict:
    """Every game with its env id, sides, special actions and default options."""
    out = {}
    for name in declared_names():
        declaration = declared(name)
        cls = declaration.game_class
        out[name] = {"env": declaration.env_module or declaration.env_name, "gym_id": declaration.gym_id,
                     "pettingzoo_id": declaration.pettingzoo_id,
                     "sides": cls.sides, "special_actions": cls.special_actions,
                     "options": {**{k: repr(v) if isinstance(v, BoardDefault) else v
                                    for k, v in cls.option_defaults.items()}, "max_moves": "per board size"}}
    return out
