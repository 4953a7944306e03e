"""Games in formats other tools read: SGF for the square-board games, JSON lines for learning.

* :func:`write_sgf` - the game as an SGF (FF[4]) file. Every position after the start is a node of
  setup properties (``AB``, ``AW``, ``AE``: the stones added and removed by the move, captures
  included), so any SGF viewer shows the exact board of these rules, which are not Go's; the move
  itself is the node's name (``N``), marked on the board (``CR``); the game info holds the players,
  the options, the move list (``GC``) and the result (``RE``).
* :func:`write_jsonl` - one JSON object per position, for supervised learning: the mover's
  observation planes, its legal mask, the move played, and the final result from the mover's side.

Both take a state whose history covers the whole game (as :func:`read_record` gives), so a record
converts with ``write_sgf(read_record(text))``.
"""
from __future__ import annotations

import json

import numpy as np

from .game import GameState
from .records import result_text

__all__ = ["write_sgf", "write_jsonl"]

_SGF_COLUMNS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _whole_game(state: GameState, who: str) -> None:
    if not isinstance(state, GameState):
        raise ValueError(f"{who}: expected a game state (read_record(text) gives one), got {type(state).__name__}")
    if len(state.history) != state.move_number:
        raise ValueError(f"{who}: the state's history covers its last {len(state.history)} of {state.move_number} "
                         f"moves (a position set up by hand or taken out of a batch); an export replays from the "
                         f"start of the game")


def _sgf_text(text: str) -> str:
    """An SGF Text value: ``]`` and ``\\`` escaped."""
    return str(text).replace("\\", "\\\\").replace("]", "\\]")


def _sgf_point(cell: int, width: int) -> str:
    r, c = divmod(int(cell), width)
    return _SGF_COLUMNS[c] + _SGF_COLUMNS[r]


def _sgf_result(state: GameState) -> str:
    if not state.terminal:
        return "?"
    if state.winner < 0:
        return "0"
    colour = "B" if state.winner == 0 else "W"
    scores = state.scores()
    if scores is None:
        return f"{colour}+"
    margin = abs(float(scores[0]) - float(scores[1]))
    return f"{colour}+{int(margin) if margin.is_integer() else margin}"


def _stones(state: GameState) -> tuple[set, set]:
    """(black cells, white cells) on the board; neutral stones count as black (SGF has two colours)."""
    board = np.asarray(state._display_board()).reshape(-1)
    on = state.game.geometry.on_board
    white = set(np.flatnonzero((board == 2) & on).tolist())
    black = set(np.flatnonzero((board != 0) & (board != 2) & on).tolist())
    return black, white


def _setup(before: tuple[set, set], after: tuple[set, set], width: int) -> str:
    """Setup properties turning the board ``before`` into ``after``."""
    out = []
    (black0, white0), (black1, white1) = before, after
    for prop, cells in (("AE", (black0 - black1 - white1) | (white0 - white1 - black1)),
                        ("AB", black1 - black0), ("AW", white1 - white0)):
        if cells:
            out.append(prop + "".join(f"[{_sgf_point(k, width)}]" for k in sorted(cells)))
    return "".join(out)


def write_sgf(state: GameState) -> str:
    """The game that led to ``state`` as SGF text (square boards up to 52 x 52)."""
    _whole_game(state, "write_sgf")
    game = state.game
    geometry = game.geometry
    if geometry.kind != "square":
        raise ValueError(f"write_sgf: SGF draws square boards only; {game.name} is played on a {geometry.kind} "
                         f"board (write_record and write_jsonl take every game)")
    height, width = geometry.shape
    if max(height, width) > len(_SGF_COLUMNS):
        raise ValueError(f"write_sgf: SGF names at most {len(_SGF_COLUMNS)} columns, the board has {width}")
    positions = state.positions()
    first = state.start_flip()
    moves = [game.action_to_notation(a) for a in state.history]
    neutral = any(int(v) not in (0, 1, 2) for p in positions for v in np.asarray(p._display_board()).reshape(-1))
    options = ", ".join(f"{k}={v}" for k, v in game.options.items())
    info = [f"{game.name} ({options}); {game.sides[0]} plays as Black, {game.sides[1]} as White; "
            f"player_{first} holds the first side",
            "every position is set up by AB/AW/AE (the rules are not Go's): read the moves in the node names",
            "moves: " + " ".join(f"{i}. {m}" for i, m in enumerate(moves, start=1)),
            f"result: {result_text(state)}"]
    if neutral:
        info.insert(1, "the neutral stones are drawn as black stones")
    size = f"{width}" if width == height else f"{width}:{height}"
    root = (f"(;FF[4]GM[1]CA[UTF-8]AP[territory-envs]SZ[{size}]GN[{_sgf_text(game.describe())}]"
            f"PB[{_sgf_text(f'player_{first} ({game.sides[0]})')}]"
            f"PW[{_sgf_text(f'player_{1 - first} ({game.sides[1]})')}]"
            f"RE[{_sgf_result(state)}]GC[{_sgf_text(chr(10).join(info))}]")
    komi = game.options.get("komi")
    if komi is not None:
        root += f"KM[{komi}]"
    nodes = [root + _setup((set(), set()), _stones(positions[0]), width)]
    for number, (before, after, action) in enumerate(zip(positions, positions[1:], state.history), start=1):
        node = ";" + _setup(_stones(before), _stones(after), width)
        node += f"N[{_sgf_text(f'{number}. {moves[number - 1]}')}]"
        node += f"PL[{'B' if after.to_move == 0 else 'W'}]" if not after.terminal else ""
        if action < game.num_cells:
            node += f"CR[{_sgf_point(action, width)}]"
        nodes.append(node)
    return "\n".join(nodes) + ")\n"


def write_jsonl(state: GameState) -> str:
    """The game that led to ``state`` as JSON lines, one per position where a player was to move:
    ``move_number``, ``player`` (0 or 1, the mover), ``side`` (the side it holds), ``planes`` (its
    observation, ``H x W x C`` nested lists of ints), ``mask`` (its legal actions, 0/1), ``move``
    (the action index) and ``notation``, ``result`` (the mover's final return: 1, -1, 0; ``null``
    while the game is unfinished)."""
    _whole_game(state, "write_jsonl")
    game = state.game
    final = state.returns() if state.terminal else None
    lines = []
    for position, action in zip(state.positions(), state.history):
        player = position.current_player
        lines.append(json.dumps({
            "game": game.name, "move_number": position.move_number, "player": player,
            "side": position.side_of(player), "planes": position.observation(player).tolist(),
            "mask": position.legal_mask().tolist(), "move": int(action),
            "notation": game.action_to_notation(action),
            "result": None if final is None else int(final[player])}, separators=(",", ":")))
    return "".join(line + "\n" for line in lines)
