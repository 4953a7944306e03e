"""The terminal game (agents.play): driven through main() with a scripted stdin, small boards."""
import io

import pytest

from agents import play
from agents.base import Agent
from territory_envs import make_game, read_record

SMALL = {  # game -> small options, so the file runs in seconds
    "lin": {"board_size": 5, "line_length": 4},
    "linage": {"board_size": 5},
    "lifeline": {"board_size": 3},
    "asli": {"board_size": 5},
}


def game_argv(name):
    """The command line of ``name`` with its small options."""
    return [name] + [text for option, value in SMALL[name].items()
                     for text in (play._flag(option), str(value))]


LIN_5 = game_argv("lin")


def run_play(argv, lines=()):
    """main() with ``lines`` as the person's input; returns (exit code, everything printed)."""
    out = io.StringIO()
    code = play.main(list(argv), stdin=io.StringIO("".join(f"{line}\n" for line in lines)), stdout=out)
    return code, out.getvalue()


def moves_in(path):
    state = read_record(path.read_text())
    return state, [state.game.action_to_notation(a) for a in state.history]


def first_cell(game, history=()):
    """The notation of the first legal point after ``history`` (notation list)."""
    state = game.new_state()
    for move in history:
        state.apply(game.notation_to_action(move))
    return game.action_to_notation(next(a for a in state.legal_actions() if a < game.num_cells))


class FirstLegalAgent(Agent):
    """Plays the first legal action: an opponent whose replies the test can foresee."""

    name = "first-legal"

    def act(self, state):
        return int(state.legal_actions()[0])


@pytest.fixture
def first_legal_opponent(monkeypatch):
    monkeypatch.setattr(play, "make_agent", lambda spec, seed=None: FirstLegalAgent(seed))


def test_commands_bad_input_and_undo(first_legal_opponent, tmp_path):
    record = tmp_path / "game.txt"
    script = ["undo", "zz9", "c3", "c3", "legal", "hint", "help", "d2", "undo", "quit"]
    code, out = run_play(LIN_5 + ["--record", str(record)], script)
    assert code == 0 and "Traceback" not in out
    assert "nothing to undo" in out
    assert "'zz9' is not a point of this 5x5 board" in out
    assert "illegal: c3 is occupied" in out
    assert "23 legal: b5 c5 d5 e5 a4" in out  # c3 and the reply a5 taken
    assert "hint (first-legal): b5" in out
    assert "undo" in out and "quit" in out and "commands:" in out
    assert "first-legal (white) plays a5" in out
    assert "took back 2 moves: d2 b5" in out
    # every line read was answered by a prompt: 10 lines, 10 prompts
    assert out.count("black to play (you) > ") == len(script)
    assert "game stopped after 2 moves" in out
    state, moves = moves_in(record)
    assert moves == ["c3", "a5"] and not state.terminal


def test_whole_game_against_random(tmp_path):
    """The person walks the board point by point (occupied points get a message) until the end."""
    game = make_game("lin", **SMALL["lin"])
    cells = [game.action_to_notation(a) for a in range(game.num_cells)]
    record = tmp_path / "game.txt"
    code, out = run_play(LIN_5 + ["--vs", "random", "--seed", "0", "--max-moves", "40", "--record", str(record)],
                         cells * 6)
    assert code == 0 and "Traceback" not in out
    assert "game over" in out and "score: black" in out
    assert "(end of input)" not in out
    state, _ = moves_in(record)
    assert state.terminal or state.move_number == 40
    assert f"record written to {record}" in out


def test_end_of_input_quits_cleanly():
    code, out = run_play(LIN_5 + ["--vs", "random"], [])
    assert code == 0
    assert "(end of input)" in out and "game stopped after 0 moves" in out and "result: ongoing" in out


def test_side_second_lets_the_agent_move_first(tmp_path):
    record = tmp_path / "game.txt"
    code, out = run_play(LIN_5 + ["--vs", "random", "--seed", "3", "--side", "second", "--record", str(record)])
    assert code == 0
    assert "you are white (player_1), random is black (player_0)" in out
    assert out.index("random (black) plays") < out.index("white to play (you) > ")
    _, moves = moves_in(record)
    assert len(moves) == 1


@pytest.mark.parametrize("name", sorted(SMALL))
def test_every_game_starts_and_accepts_a_move(name, tmp_path):
    move = first_cell(make_game(name, **SMALL[name]))
    record = tmp_path / "game.txt"
    code, out = run_play(game_argv(name) + ["--vs", "random", "--seed", "1", "--record", str(record)], [move, "quit"])
    assert code == 0 and "illegal" not in out and "Traceback" not in out
    state, moves = moves_in(record)
    assert moves[0] == move and state.game.name == name


def test_lifeline_double_placement_and_swap_follow_the_person(tmp_path):
    """The agent (black) places two stones; the person (white, player_1) swaps and so plays black."""
    record = tmp_path / "game.txt"
    code, out = run_play(game_argv("lifeline") + ["--vs", "random", "--seed", "4", "--side", "second",
                                              "--record", str(record)], ["spend_komi", "swap", "quit"])
    assert code == 0
    assert out.count("random (black) plays") == 2
    assert "this turn you place two stones" in out
    assert "illegal: spend_komi is not allowed now" in out
    assert "sides swapped: you now play black, random plays white" in out
    assert "random (white) plays" in out and "black to play (you) > quit" in out
    state, moves = moves_in(record)
    assert moves[2] == "swap" and state.side_of(1) == 0


def test_undo_in_a_double_placement_takes_back_one_stone(first_legal_opponent, tmp_path):
    game = make_game("lifeline", **SMALL["lifeline"])
    first = first_cell(game)
    second = first_cell(game, [first])
    record = tmp_path / "game.txt"
    code, out = run_play(game_argv("lifeline") + ["--record", str(record)], [first, second, "undo", "undo", "quit"])
    assert code == 0
    assert "you act again: second stone of your double placement" in out
    assert "took back 3 moves" in out and "took back 1 move:" in out
    _, moves = moves_in(record)
    assert moves == []


@pytest.mark.parametrize("argv, message", [
    (["lin", "--board-size", "6", "--vs", "random"], "option board_size=6: must be odd"),
    (["lin", "--board-size", "4", "--vs", "random"], "option board_size=4"),
    (["lin", "--pie", "weak", "--vs", "random"], "lin has no option --pie"),
    (["lifeline", "--pie", "sideways", "--vs", "random"], "option pie='sideways'"),
    (["lin", "--vs", "nobody"], "agent 'nobody': unknown"),
    (["chess", "--vs", "random"], "invalid choice: 'chess'"),
])
def test_bad_arguments_are_usage_errors(argv, message, capsys):
    code, out = run_play(argv)
    assert code == 2 and out == ""
    assert message in capsys.readouterr().err


def test_unwritable_record_is_reported(tmp_path):
    code, out = run_play(LIN_5 + ["--vs", "random", "--record", str(tmp_path)], ["quit"])
    assert code == 1 and "cannot write the record" in out


def test_playing_against_the_pretrained_network():
    # the person plays first; the shipped Lin network answers (default 9x9 options)
    code, out = run_play(["lin", "--vs", "az:sims=0"], ["e5", "quit"])
    assert code == 0 and "Traceback" not in out and "az:sims=0" in out


class SwapWhenItCan(Agent):
    """Swaps when swap is legal, else plays the first legal action."""

    name = "swapper"

    def act(self, state):
        legal = state.legal_actions()
        swap = state.game.notation_to_action("swap")
        return swap if swap in legal else int(legal[0])


def test_the_swap_is_told_after_the_move_that_swaps(monkeypatch):
    monkeypatch.setattr(play, "make_agent", lambda spec, seed=None: SwapWhenItCan(seed))
    game = make_game("lifeline", **SMALL["lifeline"])
    first = first_cell(game)
    second = first_cell(game, [first])
    code, out = run_play(game_argv("lifeline"), [first, second, "quit"])
    assert code == 0
    assert "swapper (white) plays swap" in out
    assert out.index("swapper (white) plays swap") < out.index("sides swapped: you now play white")


@pytest.mark.parametrize("name, typed, answer", [
    ("linage", "swap", "Linage has no swap (that is Lifeline's); its special actions: pass"),
    ("lin", "pass", "Lin has no pass (that is Linage's); every move places a stone"),
    ("asli", "spend_komi", "Asli has no spend_komi (that is Lifeline's); its special actions: remove_prisoner"),
])
def test_a_special_action_of_another_game_is_named_as_such(first_legal_opponent, name, typed, answer):
    code, out = run_play(game_argv(name), [typed, "quit"])
    assert code == 0 and answer in out and "not a move in notation" not in out


def test_the_help_lists_the_az_specs(capsys):
    assert play.main(["--help"]) == 0
    helped = "".join(capsys.readouterr().out.split())  # argparse wraps lines inside long words
    assert "az[:<vN,checkpointorrunfolder>][:sims=<n>]" in helped and "mcts:<playouts>" in helped
