"""Bad input to the agents package is refused with a short error that names it, and changes nothing:
agent specs and seeds, policies that return bad actions, play_game's arguments, and the command
lines of the play CLI and the arena."""
import io

import numpy as np
import pytest

from agents import MCTSAgent, RandomAgent, arena, as_agent, make_agent, play, play_game
from agents.base import Agent
from territory_envs import IllegalActionError, make_game

SHORT = 300  # the most characters an error message may take, whatever the input's size
LIN_5 = make_game("lin", board_size=5, line_length=4)
LIN_5_ARGV = ["lin", "--board-size", "5", "--line-length", "4"]
HUGE = "x" * 100_000


# --- agent specs and seeds ------------------------------------------------------------------------

@pytest.mark.parametrize("spec, message", [
    ("mcts:64:c=inf", "exploration=inf: must be a finite number"),
    ("mcts:64:c=1e400", "exploration=inf: must be a finite number"),
    ("mcts:64:c=nan", "exploration=nan: must be a finite number"),
    ("mcts:t=inf", "time_budget=inf: must be a finite number"),
    ("mcts:t=1e9", "time_budget=1000000000.0: must be a number of seconds above 0"),
    ("mcts:64:k=inf", "rave_k=inf: must be a finite number"),
    ("mcts:64:c=1:c=2", "c= given twice"),
    ("mcts:64:32", "<playouts> given twice"),
    ("mcts:64:t=1", "a playout count and t=<seconds> exclude each other"),
    ("mcts:t=1:64", "a playout count and t=<seconds> exclude each other"),
    ("mcts:" + "9" * 30, "playouts=999999999999999999999999999999: must be an integer from 1 to 1000000000"),
    ("mcts:0", "playouts=0: must be an integer from 1 to"),
    ("mcts:-5", "playouts=-5: must be an integer from 1 to"),
    ("mcts:t=-1", "time_budget=-1.0"),
    ("mcts:6_4", "cannot read '6_4'"),
    ("mcts:\uff16\uff14", "cannot read"),  # full-width digits, which int() would take
    ("mcts:64:c=1_0", "cannot read 'c=1_0'"),
    ("mcts:1e30", "cannot read '1e30'"),
    ("mcts:abc", "cannot read 'abc'"),
    ("mcts:64:rave=2", "cannot read 'rave=2'"),
    ("mcts:64:foo=1", "cannot read 'foo=1'"),
    ("greedy:3", "unknown"),
])
def test_bad_specs_name_the_spec_and_the_fault(spec, message):
    with pytest.raises(ValueError) as caught:
        make_agent(spec, seed=0)
    text = str(caught.value)
    assert text.startswith(f"agent {spec!r}: ") and message in text and len(text) < SHORT


@pytest.mark.parametrize("spec", [HUGE, "mcts:" + "9" * 5000, "mcts:64:c=" + "1" * 5000, "mcts:" + HUGE])
def test_huge_specs_give_short_messages(spec):
    with pytest.raises(ValueError) as caught:
        make_agent(spec)
    assert len(str(caught.value)) < SHORT and str(caught.value).startswith("agent '")


def test_good_specs_still_build():
    assert make_agent("mcts:64:c=0:rave=0").exploration == 0.0
    assert make_agent("mcts:+64:c=.5").playouts == 64 and make_agent("mcts:64:c=.5").exploration == 0.5
    timed = make_agent("mcts:t=0.25:k=30:uniform=1")
    assert (timed.playouts, timed.time_budget, timed.rave_k, timed.uniform_playouts) == (None, 0.25, 30.0, True)


@pytest.mark.parametrize("seed", ["x", 1.5, np.float64(2.0), -1, True, [1, 2], HUGE])
def test_bad_seeds_are_value_errors_naming_the_seed(seed):
    for spec in ("random", "greedy", "mcts:8"):
        with pytest.raises(ValueError, match="seed=.*must be None or an integer >= 0") as caught:
            make_agent(spec, seed=seed)
        assert len(str(caught.value)) < SHORT
    with pytest.raises(ValueError, match="RandomAgent: seed="):
        RandomAgent(seed)
    agent = RandomAgent(3)
    with pytest.raises(ValueError, match="seed="):
        agent.reset(seed)
    state = LIN_5.new_state()
    fresh = RandomAgent(3)
    assert [agent.act(state) for _ in range(5)] == [fresh.act(state) for _ in range(5)]  # rng unchanged


def test_as_agent_refuses_a_huge_non_callable_briefly():
    for thing in ([0] * 100_000, HUGE):
        with pytest.raises(TypeError, match="not an agent") as caught:
            as_agent(thing)
        assert len(str(caught.value)) < SHORT
        with pytest.raises(TypeError, match="not an agent"):
            make_agent([thing])


def test_mcts_constructor_refuses_what_it_would_ignore_or_misread():
    with pytest.raises(ValueError, match="not both"):
        MCTSAgent(time_budget=0.05)  # the default 256 playouts would silently win over the budget
    with pytest.raises(ValueError, match="not neither"):
        MCTSAgent(None)
    with pytest.raises(ValueError, match="rave='no'"):
        MCTSAgent(16, rave="no")
    with pytest.raises(ValueError, match="exploration=inf"):
        MCTSAgent(16, exploration=float("inf"))
    with pytest.raises(ValueError, match="playouts=16.0"):
        MCTSAgent(16.0)
    assert MCTSAgent(16, rave=np.bool_(False)).exploration == 1.4  # the plain-UCT default


# --- bad actions ----------------------------------------------------------------------------------

@pytest.mark.parametrize("returned", [3.7, 3.0, "3", None, True, 10 ** 6])
def test_a_policy_callable_returning_a_non_action_is_refused_not_truncated(returned):
    def policy(observation, action_mask):
        return returned
    agent = as_agent(policy)
    state = LIN_5.new_state()
    with pytest.raises(IllegalActionError, match="policy 'policy': action"):
        agent.act(state)
    with pytest.raises(IllegalActionError, match="policy 'policy': action"):
        agent({"observation": None, "action_mask": state.legal_mask()})


class Returns(Agent):
    """Plays its first legal action, then ``bad`` on its second move."""

    name = "returns-bad"

    def __init__(self, bad):
        super().__init__(0)
        self.bad = bad

    def act(self, state):
        return self.bad if state.move_number >= 2 else int(state.legal_actions()[0])


@pytest.mark.parametrize("bad, reason", [(0, "illegal action 0"), (-1, "out of range"), (10 ** 6, "out of range"),
                                         (2.0, "not an integer"), ("c3", "not an integer"),
                                         (HUGE, "not an integer")])
def test_play_game_names_the_agent_that_returned_a_bad_action(bad, reason):
    with pytest.raises(IllegalActionError) as caught:
        play_game(LIN_5, (Returns(bad), RandomAgent(1)), seed=0)
    text = str(caught.value)
    assert text.startswith("agent 'returns-bad' (player_0) at move 3: ") and reason in text
    assert len(text) < SHORT
    with pytest.raises(IllegalActionError, match=r"agent 'returns-bad' \(player_1\) at move 4: "):
        play_game(LIN_5, (RandomAgent(1), Returns(bad)), seed=0)


def test_play_game_checks_its_arguments():
    pair = (RandomAgent(0), RandomAgent(1))
    for seed in (-1, "x", 1.5, True):
        with pytest.raises(ValueError, match="play_game: seed="):
            play_game(LIN_5, pair, seed=seed)
    for agents in ((RandomAgent(0),), pair + (RandomAgent(2),), "random"):
        with pytest.raises(ValueError, match="must be a pair"):
            play_game(LIN_5, agents)
    with pytest.raises(TypeError, match="not an agent"):
        play_game(LIN_5, (RandomAgent(0), 5))
    with pytest.raises(TypeError, match="must be a Game"):
        play_game("lin", pair)
    with pytest.raises(ValueError, match="swap_sides"):
        play_game(LIN_5, pair, swap_sides="yes")
    result = play_game(LIN_5, (lambda obs, mask: int(np.flatnonzero(mask)[0]), RandomAgent(1)), seed=0)
    assert result.agents == ("<lambda>", "random") and result.moves > 0


# --- the play CLI -----------------------------------------------------------------------------------

def run_play(argv, lines=("quit",)):
    out = io.StringIO()
    code = play.main(list(argv), stdin=io.StringIO("".join(f"{line}\n" for line in lines)), stdout=out)
    return code, out.getvalue()


@pytest.mark.parametrize("argv, message", [
    (LIN_5_ARGV + ["--vs", "random", "--seed", "-1"], "argument --seed: -1: must be an integer >= 0"),
    (LIN_5_ARGV + ["--vs", "random", "--seed", HUGE], "argument --seed: invalid int value: 'xxx"),
    (LIN_5_ARGV + ["--vs", "mcts:t=inf"], "--vs: agent 'mcts:t=inf': MCTSAgent: option time_budget=inf"),
    (LIN_5_ARGV + ["--vs", "mcts:64:c=inf"], "--vs: agent 'mcts:64:c=inf'"),
    (LIN_5_ARGV + ["--vs", HUGE], "--vs: agent 'xxx"),
    (LIN_5_ARGV + ["--vs", "random", "--record", ""], "argument --record: must not be empty"),
    (LIN_5_ARGV + ["--vs", "random", "--side", HUGE], "argument --side: invalid choice: 'xxx"),
    ([HUGE, "--vs", "random"], "argument game: invalid choice: 'xxx"),
    (["lin", "--board-size", "1e400", "--vs", "random"], "option board_size='1e400'"),
    (["lin", "--board-size", "9" * 5000, "--vs", "random"], "option board_size='999"),
])
def test_play_bad_arguments_are_short_usage_errors(argv, message, capsys):
    code, out = run_play(argv)
    err = capsys.readouterr().err
    last = err.strip().splitlines()[-1]
    assert code == 2 and out == "" and "Traceback" not in err
    assert last.startswith("territory-play: error: ") and message in last and len(last) < SHORT


def test_play_bad_typed_moves_leave_the_game_unchanged():
    code, out = run_play(LIN_5_ARGV + ["--vs", "random", "--seed", "0"], ["zz99", "", HUGE, "c3 d4", "c0", "quit"])
    assert code == 0 and "Traceback" not in out
    replies = out.split(HUGE)[1]  # what follows the echo of the huge line
    assert "not a move in notation: 'xxx" in replies and len(replies.splitlines()[1]) < SHORT
    assert "'zz99' is not a point" in out and "'c0' is not a point" in out
    assert "game stopped after 0 moves" in out


# --- the arena CLI ----------------------------------------------------------------------------------

ARENA_BASE = ["--games", "lin", "--agents", "random,greedy", "--games-per-pair", "2", "--workers", "1",
              "--quiet", "--no-plot", "--option", "lin.board_size=5", "--option", "lin.line_length=4"]


@pytest.mark.parametrize("args, message", [
    (["--games-per-pair", "0"], "argument --games-per-pair: 0: must be an even integer >= 2"),
    (["--games-per-pair", "-2"], "argument --games-per-pair: -2: must be an even integer >= 2"),
    (["--games-per-pair", "3"], "argument --games-per-pair: 3: must be an even integer"),
    (["--games-per-pair", HUGE], "argument --games-per-pair: invalid int value: 'xxx"),
    (["--workers", "0"], "argument --workers: 0: must be an integer >= 1"),
    (["--workers", "-3"], "argument --workers: -3: must be an integer >= 1"),
    (["--workers", HUGE], "argument --workers: invalid int value"),
    (["--seed", HUGE], "argument --seed: invalid int value"),
    (["--out", ""], "argument --out: must not be empty"),
    (["--games", HUGE], "unknown game 'xxx"),
    (["--agents", "random," + HUGE], "agent 'xxx"),
    (["--agents", "random,mcts:0"], "agent 'mcts:0': MCTSAgent: option playouts=0"),
    (["--agents", "random,mcts:8:c=1:c=2"], "c= given twice"),
    (["--option", HUGE], "--option 'xxx"),
    (["--option", "lin.board_size=" + "9" * 5000], "option board_size='999"),
])
def test_arena_bad_arguments_are_short_usage_errors(args, message, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)  # an --out '' taken as the current folder writes nothing elsewhere
    out = tmp_path / "never"
    assert arena.main(ARENA_BASE + ["--out", str(out)] + args) == 2
    err = capsys.readouterr().err
    last = err.strip().splitlines()[-1]
    assert "Traceback" not in err and message in last and len(last) < SHORT
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_arena_output_path_with_a_file_in_the_way_fails_before_playing(tmp_path, monkeypatch, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("keep")
    monkeypatch.setattr(arena, "_play_all", lambda *args: pytest.fail("played before checking --out"))
    for out in (blocker, blocker / "results"):
        assert arena.main(ARENA_BASE + ["--out", str(out)]) == 2
        assert "cannot make the folder" in capsys.readouterr().err
    assert blocker.read_text() == "keep"


@pytest.mark.parametrize("change, message", [
    (dict(seed="x"), "seed='x'"), (dict(seed=1.5), "seed=1.5"), (dict(workers="2"), "workers='2'"),
    (dict(workers=2.5), "workers=2.5"), (dict(workers=True), "workers=True"), (dict(out=""), "out=''"),
    (dict(games_per_pair=HUGE), "not 'xxx"),
])
def test_run_arena_checks_seed_workers_and_out_before_playing(change, message, monkeypatch):
    monkeypatch.setattr(arena, "_play_all", lambda *args: pytest.fail("played before checking the input"))
    kwargs = dict(games=["lin"], agents=["random", "greedy"], games_per_pair=2, workers=1,
                  options={"lin": {"board_size": 5, "line_length": 4}})
    with pytest.raises(arena.ArenaConfigError, match=message) as caught:
        arena.run_arena(**{**kwargs, **change})
    assert len(str(caught.value)) < SHORT
