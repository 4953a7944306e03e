"""A game's compiled functions as one value that compiled code can take as an argument.

The generic kernels (the batch step and reset of :mod:`.batch`, the random playouts) are written
once and take a :class:`CompiledGame` as their first argument; inside them ``game.act(...)`` calls
that game's compiled turn. numba compiles a generic kernel once per game and keeps each in its
on-disk cache, because the value's numba type is named by the game and a digest of the game's
sources (``CompiledGame[lin:3f2a...]``): a type that holds the functions themselves would be named
by their addresses, which change with every process, and nothing would load from the cache. The
digest makes an edited game compile afresh, which numba would not notice in a kernel of another
file (its cache follows the file that defines a function).

Every game supplies the same functions over *one game's arrays* ``g``, the tuple ``(board, mask,
s, *declared arrays, *declared tables)`` of that game's rows (:func:`game_at` cuts it out of a
batch), and its constants ``p`` (the tuple ``Game.params``):

* ``new_game(g, p)``: the start of a game; returns the row's ``head_code``;
* ``act(g, action, p)``: one legal action (the turn, the end and its winner); returns ``head_code``;
* ``observe(g, viewer, p, out)``: the planes of side ``viewer`` into ``out`` (H, W, C);
* ``observe_mover(g, side, p, out)``: ``observe`` of the side to move in a game that goes on,
  whose legal plane is the mask: the batch step's observation after every action, so a game whose
  ``observe`` must first ask whether the viewer may move saves that test. Optional: ``observe``.
* ``final_scores(g, p)``: ``(first, second)`` points, komi included (0.0 for games without points);
* ``playout_action(g, p, scratch, uniform)``: the next action of a random playout (see
  ``GameState.rollout``), -1 when the side to move has none; returns ``(action, played)``, where
  ``played`` says the function played it itself (a playout that tests a move by playing it), else
  the playout calls ``act``. Optional: the default draws uniformly from the mask.
  ``playout_scratch(g, p, moves_left)`` gives the scratch it keeps over a playout (default: none).
"""
from __future__ import annotations

import hashlib
import inspect
import os

from numba import types
from numba.core.typing.templates import AttributeTemplate
from numba.extending import (NativeValue, infer_getattr, lower_getattr_generic, models, overload, register_model,
                             typeof_impl, unbox)

REQUIRED = ("new_game", "act", "observe", "final_scores")
OPTIONAL = ("observe_mover", "playout_action", "playout_scratch")
# an optional function a game leaves out is its own function of the same signature, or a default of .batch
_FALLBACKS = {"observe_mover": "observe"}

_BY_TYPE_NAME: dict[str, "CompiledGame"] = {}  # type name -> the registered game (what the attributes resolve to)
_DEFAULTS: dict[str, object] = {}  # attribute -> the function of a game that does not supply it (set by .batch)


class CompiledGame:
    """The compiled functions of game ``name`` (numba dispatchers, as the module docstring lists)."""

    def __init__(self, name: str, **functions):
        missing = [f for f in REQUIRED if f not in functions]
        unknown = [f for f in functions if f not in REQUIRED + OPTIONAL]
        if missing or unknown:
            raise ValueError(f"CompiledGame({name!r}): "
                             + "; ".join(([f"missing {', '.join(missing)}"] if missing else [])
                                         + ([f"unknown {', '.join(unknown)}"] if unknown else [])))
        self.name = name
        self.functions = functions
        self.numba_type = CompiledGameType(f"{name}:{_sources_digest(functions.values())}")
        _BY_TYPE_NAME[self.numba_type.game] = self

    def __getattr__(self, attr):  # game.act(...) from Python as from compiled code
        functions = self.__dict__.get("functions", {})
        if attr in functions:
            return functions[attr]
        if _FALLBACKS.get(attr) in functions:
            return functions[_FALLBACKS[attr]]
        if attr in _DEFAULTS:
            return _DEFAULTS[attr]
        raise AttributeError(attr)

    def __repr__(self) -> str:
        return f"CompiledGame({self.name!r})"


def _sources_digest(functions) -> str:
    """A short digest of the source files of the packages that define ``functions``."""
    folders = sorted({os.path.dirname(inspect.getfile(getattr(f, "py_func", f))) for f in functions})
    digest = hashlib.sha256()
    for folder in folders:
        for name in sorted(os.listdir(folder)):
            if name.endswith(".py"):
                with open(os.path.join(folder, name), "rb") as f:
                    digest.update(name.encode() + f.read())
    return digest.hexdigest()[:12]


def _type_named(game: str) -> "CompiledGameType":
    return CompiledGameType(game)  # numba interns types by name: the registered one if there is one


class CompiledGameType(types.Opaque):
    """The numba type of one :class:`CompiledGame`: its name alone, so that it pickles into
    numba's cache index and compares equal across processes."""

    def __init__(self, game: str):
        self.game = game
        super().__init__(name=f"CompiledGame[{game}]")

    def __reduce__(self):
        return _type_named, (self.game,)


@typeof_impl.register(CompiledGame)
def _typeof_compiled_game(value, context):
    return value.numba_type


register_model(CompiledGameType)(models.OpaqueModel)


@unbox(CompiledGameType)
def _unbox_compiled_game(typ, obj, c):
    return NativeValue(c.context.get_dummy_value())  # no data: the type says everything


@infer_getattr
class _CompiledGameAttributes(AttributeTemplate):
    key = CompiledGameType

    def generic_resolve(self, typ, attr):
        game = _BY_TYPE_NAME.get(typ.game)
        try:
            return None if game is None else types.Dispatcher(getattr(game, attr))
        except AttributeError:
            return None


@lower_getattr_generic(CompiledGameType)
def _lower_compiled_game_attribute(context, builder, typ, value, attr):
    return context.get_dummy_value()  # a dispatcher value carries no data either


def game_at(arrays, e):
    """The tuple of row ``e`` of every array of ``arrays`` (in compiled code through the overload
    below, which numba unrolls for the tuple's length)."""
    return tuple(a[e] for a in arrays)


@overload(game_at, inline="always")
def _game_at(arrays, e):
    rows = ", ".join(f"arrays[{i}][e]" for i in range(len(arrays)))
    scope = {}
    exec(f"def rows(arrays, e):\n    return ({rows},)\n", scope)
    return scope["rows"]


def copy_game(g):
    """A copy of every array of one game's tuple ``g`` (in compiled code through the overload below)."""
    return tuple(a.copy() for a in g)


@overload(copy_game, inline="always")
def _copy_game(g):
    copies = ", ".join(f"g[{i}].copy()" for i in range(len(g)))
    scope = {}
    exec(f"def copies(g):\n    return ({copies},)\n", scope)
    return scope["copies"]


def copy_rows(arrays, source, target):
    """Row ``source`` of every array of ``arrays`` into row ``target`` (one game into another's
    place: a tree search's child node; in compiled code through the overload below)."""
    for a in arrays:
        a[target] = a[source]


@overload(copy_rows, inline="always")
def _copy_rows(arrays, source, target):
    lines = "".join(f"    arrays[{i}][target] = arrays[{i}][source]\n" for i in range(len(arrays)))
    scope = {}
    exec(f"def copy(arrays, source, target):\n{lines}", scope)
    return scope["copy"]
