"""The four games by name: their rules (:class:`Game`) and their envs."""
from __future__ import annotations

import importlib

from .core.game import Game
from .core.options import BoardDefault, excerpt

# name -> (rules module, Game class, env module)
_GAMES = {
    "lin": ("territory_envs.games.lin", "LinGame", "territory_envs.lin_v0"),
    "linage": ("territory_envs.games.linage", "LinageGame", "territory_envs.linage_v0"),
    "lifeline": ("territory_envs.games.lifeline", "LifelineGame", "territory_envs.lifeline_v0"),
    "asli": ("territory_envs.games.asli", "AsliGame", "territory_envs.asli_v0"),
}


def game_names() -> list[str]:
    return list(_GAMES)


def _entry(name: str):
    if not isinstance(name, str) or name not in _GAMES:
        raise ValueError(f"unknown game {excerpt(name)}; the games are {', '.join(_GAMES)}")
    return _GAMES[name]


def game_class(name: str) -> type[Game]:
    module, cls, _ = _entry(name)
    return getattr(importlib.import_module(module), cls)


def make_game(name: str, **options) -> Game:
    """The rules of ``name`` with ``options`` (validated): a factory of states, no env around it."""
    return game_class(name)(**options)


def make(name: str, **options):
    """The AEC env ``territory_envs.<name>_v0.env(**options)``."""
    return importlib.import_module(_entry(name)[2]).env(**options)


def registry() -> dict:
    """Every game with its env id, sides, special actions and default options."""
    out = {}
    for name in _GAMES:
        cls = game_class(name)
        out[name] = {"env": _entry(name)[2], "sides": cls.sides,
                     "special_actions": cls.special_actions,
                     "options": {**{k: repr(v) if isinstance(v, BoardDefault) else v
                                    for k, v in cls.option_defaults.items()}, "max_moves": "per board size"}}
    return out
