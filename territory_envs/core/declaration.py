"""A game as one declaration, and the table of the registered games.

Each game's package exports one :class:`GameDeclaration` (``GAME``) that carries everything the
generic layers need: its :class:`~territory_envs.core.game.Game` subclass (whose options, planes,
state class with its declared fields, and compiled interface, :mod:`.compiled`, come with it), its
title, its version, its greedy evaluation, its board symmetries, where its env's docs live. The
envs, the batch, the greedy opponents, the symmetries of the trainer, the first-use notice, the
Gymnasium ids and the docs read it and name no game. :func:`register_game` adds a game to the
table (``territory_envs.register_game``, which registers its Gymnasium and PettingZoo ids too, calls
:func:`add_declaration`), for the four games of the package as for a game of the user's
(docs/architecture.md, "Adding a game")."""
from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from .options import excerpt

NAMESPACE = "territory_envs"  # of the Gymnasium and PettingZoo ids: territory_envs/Lin-v0, territory_envs/lin-v0


@dataclass(frozen=True)
class GameDeclaration:
    """One game, as the generic layers see it.

    * ``game_class``: the game's :class:`~territory_envs.core.game.Game` subclass; its ``name`` is
      the game's name everywhere (``make(name)``, state dicts, records);
    * ``title``: the name people read (``"Lin"``), in messages, docs and the Gymnasium id;
    * ``evaluate``: the greedy evaluation, ``evaluate(positions, game, side, opponent_to_act)``:
      float64 ``(k,)``, the value of each of ``k`` positions (``positions``: ``board``, ``mask``
      and ``scalars`` of ``k`` rows each, and each declared array under its name) for ``side``
      (int64 ``(k,)``), the player who just acted; ``opponent_to_act`` (bool ``(k,)``) says the
      other player moves next. Finished games are scored by the caller, not here;
    * ``ownership``: ``ownership(positions, game)``, int8 ``(k, N)``: who holds each cell, +1 the
      first side, -1 the second, 0 nobody, in the sense of the game's end (Lin's living domains,
      Asli's territories and stones): the trainer's auxiliary ownership target, read at the end of
      each self-play game (default: the stones, :func:`~.evaluation.stone_owners`);
    * ``version``: the env's version (``lin_v0``, ``territory_envs/Lin-v0``);
    * ``env_module``: the module with the game's PettingZoo env functions and docstring (default:
      the env is defined from ``game_class`` with ``env_doc``);
    * ``env_doc``: what the env is, where there is no env module;
    * ``symmetries``: ``symmetries(game)``, the cell permutations (identity first) under which the
      rules are unchanged (default: every symmetry of the board);
    * ``cold_seconds``: ``(AEC env, batched env)`` seconds of a first use with numba's cache empty,
      for the first-use notice (``None``: no notice);
    * ``picture_moves``: random moves before the picture of the docs page.
    """

    game_class: type
    title: str
    evaluate: Callable
    ownership: Callable | None = None
    version: int = 0
    env_module: str | None = None
    env_doc: str = ""
    symmetries: Callable | None = None
    cold_seconds: tuple | None = None
    picture_moves: int = 24
    _env: list = field(default_factory=list, repr=False, compare=False)  # (raw_env, env, parallel_env), made once

    @property
    def name(self) -> str:
        return self.game_class.name

    @property
    def env_name(self) -> str:
        """The PettingZoo env's name, ``lin_v0``."""
        return f"{self.name}_v{self.version}"

    @property
    def gym_id(self) -> str:
        """The single-agent env's Gymnasium id, ``territory_envs/Lin-v0``."""
        return f"{NAMESPACE}/{self.title}-v{self.version}"

    @property
    def pettingzoo_id(self) -> str:
        """The AEC and parallel envs' PettingZoo id, ``territory_envs/lin-v0`` (lower case, as
        PettingZoo's own ``classic/tictactoe-v3``)."""
        return f"{NAMESPACE}/{self.name}-v{self.version}"

    def env_functions(self) -> tuple:
        """``(raw_env, env, parallel_env)``: those of ``env_module``, or defined once here."""
        if not self._env:
            if self.env_module:
                module = importlib.import_module(self.env_module)
                self._env.append((module.raw_env, module.env, module.parallel_env))
            else:
                from .env import define_env
                self._env.append(define_env(self.game_class, self.env_name, self.env_doc, self.game_class.__module__))
        return self._env[0]

    def __getstate__(self):  # to worker processes: the env functions are made again there
        return {k: v for k, v in self.__dict__.items() if k != "_env"}

    def __setstate__(self, state):
        self.__dict__.update(state, _env=[])

    def cell_owners(self, positions, game) -> np.ndarray:
        """:attr:`ownership` of ``positions``, or their stones where the game declares none."""
        from .evaluation import stone_owners
        return (self.ownership or stone_owners)(positions, game)

    def board_symmetries(self, game) -> np.ndarray:
        if self.symmetries is not None:
            return self.symmetries(game)
        from .symmetry import geometry_symmetries
        return geometry_symmetries(game.geometry)


_GAMES: dict[str, GameDeclaration] = {}


def add_declaration(declaration: GameDeclaration) -> None:
    """Add a game to the table, under ``declaration.name``. Registering the game again (its
    declaration, or a copy of it, as a worker process receives) changes nothing; another game under
    a registered name raises ``ValueError``."""
    if not isinstance(declaration, GameDeclaration):
        raise ValueError(f"register_game: expected a GameDeclaration, got {excerpt(declaration)}")
    name = declaration.name
    if not isinstance(name, str) or not re.fullmatch(r"[a-z][a-z0-9_]*", name):
        raise ValueError(f"register_game: the game's name {excerpt(name)} must be lower-case letters, digits "
                         f"and underscores, starting with a letter")
    if getattr(declaration.game_class, "compiled", None) is None:
        raise ValueError(f"register_game: {name}'s Game class has no compiled interface (its 'compiled')")
    known = _GAMES.get(name)
    if known is not None:
        if known.game_class is not declaration.game_class:
            raise ValueError(f"register_game: a game named {name!r} is registered already")
        return
    _GAMES[name] = declaration
    declaration.game_class.declaration = declaration


def remove_declaration(name: str) -> None:
    """Take game ``name`` out of the table (``territory_envs.unregister_game``)."""
    declared(name)
    del _GAMES[name]


def declared(name: str) -> GameDeclaration:
    """The declaration of the registered game ``name`` (``ValueError`` naming the games if none)."""
    if not isinstance(name, str) or name not in _GAMES:
        raise ValueError(f"unknown game {excerpt(name)}; the games are {', '.join(_GAMES)}")
    return _GAMES[name]


def declared_names() -> list[str]:
    return list(_GAMES)
