"""Game records as text: the options, then the moves in notation, then the result.

::

    # territory-envs record
    game: lin
    board_size: 9
    line_length: 6
    komi: 0
    max_moves: 1620
    first_side: player_0
    moves:
    e5
    d4
    ...
    result: black wins 45-36

Header lines are ``key: value`` (the game, then each option, then ``first_side``, the player holding
the first side at the start). Each move line is one action in the game's notation (``c3``; special
actions by name, e.g. ``pass``, ``swap``), optionally numbered (``12. c3``); ``#`` starts a comment.
The ``result:`` line closes the record: ``ongoing``, ``draw``, ``<side> wins`` (scores may follow).
Reading replays every move through the rules and checks the result, so a corrupt or truncated record
is refused with a ``ValueError`` naming the line at fault.
"""
from __future__ import annotations

import json

from .game import GameState, IllegalActionError
from .options import excerpt

MAGIC = "# territory-envs record"


def result_text(state: GameState) -> str:
    if not state.terminal:
        return "ongoing"
    text = "draw" if state.winner < 0 else f"{state.side_name(state.winner)} wins"
    scores = state.scores()
    if scores is not None:
        text += " " + "-".join(str(s) for s in scores)
    return text


def write_record(state: GameState) -> str:
    """The record of the game that led to ``state`` (from its start)."""
    game = state.game
    if len(state.history) != state.move_number:
        raise ValueError(f"write_record: the state's history covers its last {len(state.history)} of "
                         f"{state.move_number} moves (a position set up by hand or taken out of a batch); "
                         f"a record replays from the start of the game")
    first = state.start_flip()
    lines = [MAGIC, f"game: {game.name}"]
    lines += [f"{k}: {json.dumps(v)}" for k, v in game.options.items()]
    lines.append(f"first_side: player_{first}")
    lines.append("moves:")
    lines += [game.action_to_notation(a) for a in state.history]
    lines.append(f"result: {result_text(state)}")
    return "\n".join(lines) + "\n"


def read_record(text: str) -> GameState:
    """Replay a record; returns the final state. ``ValueError`` names the line at fault and quotes
    at most a short excerpt of it."""
    from .declaration import declared

    if not isinstance(text, str):
        raise ValueError(f"read_record: expected the record's text (a str), got {type(text).__name__}")

    header: dict = {}
    header_lines: dict = {}  # key -> (line number, text), to blame the line of a bad option
    state = None
    result = None
    last_line = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        last_line = number

        def fail(message: str, at=None):
            where, text = at or (number, raw.strip())
            raise ValueError(f"record line {where}: {excerpt(message, 300)}: {excerpt(text)}")

        if result is not None:
            fail("text after the result line")
        if state is None:
            if line == "moves:":
                if "game" not in header:
                    fail("'moves:' before any 'game:' line")
                game_name = header.pop("game")
                first = header.pop("first_side", "player_0")
                if first not in ("player_0", "player_1"):
                    fail(f"first_side must be player_0 or player_1, not {excerpt(first)}")
                try:
                    game = declared(game_name).game_class(**header)
                except ValueError as err:
                    blamed = [k for k in header_lines if f"option {k}=" in str(err) or f"{k!r}" in str(err)]
                    if "unknown game" in str(err):
                        blamed = ["game"]
                    fail(str(err), header_lines[blamed[0]] if blamed else None)
                state = game.new_state(swap_sides=first == "player_1")
                continue
            key, sep, value = line.partition(":")
            if not sep:
                fail("expected 'key: value' in the header")
            key, value = key.strip(), value.strip()
            if key in header:
                fail(f"{excerpt(key)} given twice")
            header_lines[key] = (number, raw.strip())
            if key in ("game", "first_side"):
                header[key] = value
            else:
                try:
                    header[key] = json.loads(value)
                except (json.JSONDecodeError, RecursionError):
                    header[key] = value
            continue
        if line.startswith("result:"):
            result = line.partition(":")[2].strip()
            expected = result_text(state)
            if result != expected:
                fail(f"the moves lead to result {expected!r}")
            continue
        move = line.split(".", 1)[1].strip() if "." in line and line.split(".", 1)[0].isdigit() else line
        try:
            state.apply(state.game.notation_to_action(move))
        except (IllegalActionError, ValueError) as err:
            fail(str(err))
    if state is None:
        raise ValueError(f"record truncated after line {last_line}: no 'moves:' line")
    if result is None:
        raise ValueError(f"record truncated after line {last_line}: no 'result:' line")
    return state
