"""Exports other tools read: SGF (parsed by sgfmill, a real SGF reader) whose setup stones replay to
the record's boards, and JSON lines whose positions are the game's."""
import json

import numpy as np
import pytest

import territory_envs
from territory_envs import read_record, write_jsonl, write_record, write_sgf

from tests.positions import random_game


def finished(name, seed=0, **options):
    """A whole game of random moves, through a record (as a user converts one)."""
    state = random_game(territory_envs.make_game(name, **options), 10_000, seed)
    assert state.terminal
    return read_record(write_record(state))


def sgf_boards(text: str):
    """Each node's board after its setup, as ``{(row, col): "b" | "w"}`` in our rows (top is 0)."""
    sgf = pytest.importorskip("sgfmill.sgf")
    game = sgf.Sgf_game.from_string(text)
    size = game.get_size()
    board, boards = {}, []
    for node in game.get_main_sequence():
        black, white, empty = node.get_setup_stones()
        for row, col in empty:
            board.pop((size - 1 - row, col), None)
        for colour, points in (("b", black), ("w", white)):
            for row, col in points:  # sgfmill counts rows from the bottom
                board[(size - 1 - row, col)] = colour
        boards.append(dict(board))
    return game, boards


def our_board(state) -> dict:
    board = np.asarray(state._display_board())
    width = state.game.geometry.shape[1]
    return {divmod(int(k), width): "w" if board[k] == 2 else "b" for k in np.flatnonzero(board)}


@pytest.mark.parametrize("name, options", [("lin", {"board_size": 7, "line_length": 4}), ("asli", {"board_size": 6}),
                                           ("linage", {"board_size": 5})])
def test_sgf_opens_in_sgfmill_and_every_setup_is_the_records_board(name, options):
    state = finished(name, **options)
    game, boards = sgf_boards(write_sgf(state))
    positions = state.positions()
    assert len(boards) == len(positions) == len(state.history) + 1
    for board, position in zip(boards, positions):
        assert board == our_board(position)
    assert boards[-1] == our_board(state) and len(boards[-1]) >= 3  # the final setup is the final board
    root = game.get_root()
    assert game.get_size() == options["board_size"]
    assert root.get("RE")[0] in "BW0"
    comment = root.get("GC")
    assert "moves: 1. " + state.game.action_to_notation(state.history[0]) in comment
    assert f"result: {territory_envs.core.records.result_text(state)}" in comment
    names = [node.get("N") for node in game.get_main_sequence()[1:]]
    assert names == [f"{i}. {state.game.action_to_notation(a)}" for i, a in enumerate(state.history, start=1)]


def test_sgf_refuses_the_hexhex_board_and_a_partial_history():
    with pytest.raises(ValueError, match="square boards"):
        write_sgf(finished("lifeline", board_size=3))
    partial = territory_envs.state_from_dict(random_game(territory_envs.make_game("lin", board_size=5), 4).to_dict()
                                             | {"history": []}, reachable=False)
    with pytest.raises(ValueError, match="history"):
        write_sgf(partial)
    with pytest.raises(ValueError, match="expected a game state"):
        write_sgf("(;FF[4])")


@pytest.mark.parametrize("name, options", [("lin", {"board_size": 5, "line_length": 3}), ("lifeline", {"board_size": 3})])
def test_jsonl_has_one_line_per_move_with_the_movers_planes_mask_and_result(name, options):
    state = finished(name, **options)
    lines = [json.loads(line) for line in write_jsonl(state).splitlines()]
    assert len(lines) == len(state.history)
    returns = state.returns()
    for line, position, action in zip(lines, state.positions(), state.history):
        player = position.current_player
        assert line["player"] == player and line["move"] == action
        np.testing.assert_array_equal(np.array(line["planes"], dtype=np.int8), position.observation(player))
        np.testing.assert_array_equal(np.array(line["mask"]), position.legal_mask())
        assert line["mask"][action] == 1 and line["result"] == int(returns[player])
        assert line["notation"] == state.game.action_to_notation(action)
