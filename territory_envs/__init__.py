"""territory-envs: PettingZoo environments for four two-player territory games.

``territory_envs.make(name, **options)`` gives a game's AEC env (``game_names()`` lists the games;
``make_parallel`` the parallel env; both also by ``pettingzoo.make("aec" | "parallel",
"territory_envs/lin-v0")``);
``make_game(name)`` the bare rules (:class:`Game`) whose states (``game.new_state()``) carry the
docs/spec.md state API; ``gymnasium.make(gym_ids()[name], opponent="greedy")`` one side against an
opponent (:mod:`territory_envs.single`). Importing this package never imports torch.
"""
import os as _os

from .core.compile_cache import clear_stale_cache as _clear_stale_cache

_clear_stale_cache(_os.path.dirname(_os.path.abspath(__file__)))  # before any kernel loads its cache

from .core.declaration import GameDeclaration
from .core.game import Game, GameState, IllegalActionError, IllegalActionWarning
from .core.exports import write_jsonl, write_sgf
from .core.records import read_record, write_record
from .games import asli, lifeline, lin, linage
from .registry import game_names, make, make_game, make_parallel, register_game, registry, unregister_game
from .single import SingleAgentEnv, gym_ids
from . import vector  # territory_envs.vector.make_vec(...) after a plain ``import territory_envs``

for _game in (lin.GAME, linage.GAME, lifeline.GAME, asli.GAME):
    register_game(_game)  # make(name), make_vec(name, ...), gymnasium.make and pettingzoo.make for each


def state_from_dict(data: dict, reachable: bool = True) -> GameState:
    """Rebuild any game's state from :meth:`GameState.to_dict` output; a corrupt dict, or one that
    no game reaches, raises ``ValueError`` naming the field (see :meth:`GameState.from_dict`)."""
    return GameState.from_dict(data, reachable=reachable)


def state_from_json(text: str, reachable: bool = True) -> GameState:
    return GameState.from_json(text, reachable=reachable)


__all__ = ["Game", "GameState", "IllegalActionError", "IllegalActionWarning", "make", "make_parallel", "make_game", "game_names", "registry",
           "read_record", "write_record", "write_sgf", "write_jsonl", "state_from_dict", "state_from_json", "SingleAgentEnv", "gym_ids",
           "GameDeclaration", "register_game", "unregister_game"]


def __getattr__(name):
    if name == "GYM_IDS":  # the ids of the games registered so far (gym_ids() follows later registrations)
        return gym_ids()
    raise AttributeError(f"module 'territory_envs' has no attribute {name!r}")
__version__ = "0.1.0"
