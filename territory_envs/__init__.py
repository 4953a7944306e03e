"""territory-envs: PettingZoo environments for four two-player territory games.

``territory_envs.make("lin", board_size=9)`` gives an AEC env; ``make_game("lin")`` the bare
rules (:class:`Game`) whose states (``game.new_state()``) carry the SPEC.md state API. Importing
this package never imports torch.
"""
import os as _os

from .core.compile_cache import clear_stale_cache as _clear_stale_cache

_clear_stale_cache(_os.path.dirname(_os.path.abspath(__file__)))  # before any kernel loads its cache

from .core.game import Game, GameState, IllegalActionError
from .core.records import read_record, write_record
from .registry import game_names, make, make_game, registry


def state_from_dict(data: dict) -> GameState:
    """Rebuild any game's state from :meth:`GameState.to_dict` output (``ValueError`` if corrupt)."""
    if not isinstance(data, dict) or "game" not in data or not isinstance(data.get("options"), dict):
        raise ValueError("state dict: expected a dict with 'game' and 'options' fields")
    return make_game(data["game"], **data["options"]).state_from_dict(data)


def state_from_json(text: str) -> GameState:
    import json
    return state_from_dict(json.loads(text))


__all__ = ["Game", "GameState", "IllegalActionError", "make", "make_game", "game_names", "registry",
           "read_record", "write_record", "state_from_dict", "state_from_json"]
__version__ = "0.1.0"
