"""The baseline agents: the interface, seeding, legality, and search that finds what it should."""
import numpy as np
import pytest

from agents import (Agent, CallableAgent, GreedyAgent, MCTSAgent, RandomAgent, as_agent, make_agent,
                    play_game)
from territory_envs import IllegalActionError, make, make_game, read_record

SMALL = {"lin": {"board_size": 5, "line_length": 4}, "linage": {"board_size": 5, "line_length": 3},
         "lifeline": {"board_size": 3}, "asli": {"board_size": 5}}
GAMES = sorted(SMALL)


def test_specs_build_the_agents_and_bad_specs_are_refused():
    assert isinstance(make_agent("random"), RandomAgent)
    assert isinstance(make_agent("greedy"), GreedyAgent)
    mcts = make_agent("mcts:32:c=0.5")
    assert isinstance(mcts, MCTSAgent) and mcts.playouts == 32 and mcts.exploration == 0.5
    timed = make_agent("mcts:t=0.25")
    assert timed.playouts is None and timed.time_budget == 0.25 and timed.name == "mcts:t=0.25"
    for bad in ["", "randomly", "mcts:x", "mcts:0", "mcts:16:q=2", "greedy:3", "mcts:t=-1"]:
        with pytest.raises(ValueError):
            make_agent(bad)
    with pytest.raises(TypeError):
        as_agent(42)


def test_any_policy_callable_is_an_agent_on_env_and_state():
    calls = []

    def first_legal(observation, action_mask):
        calls.append(observation["observation"].shape)
        return int(np.flatnonzero(action_mask)[0])
    agent = as_agent(first_legal)
    assert isinstance(agent, CallableAgent) and agent.name == "first_legal"
    state = make_game("lin", **SMALL["lin"]).new_state()
    assert agent.act(state) == int(state.legal_actions()[0])
    env = make("lin", **SMALL["lin"])
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)
    assert agent(obs) == int(np.flatnonzero(obs["action_mask"])[0])
    assert calls[0] == (5, 5, 10)


def test_state_agents_refuse_the_observation_form_and_play_through_the_env():
    env = make("asli", **SMALL["asli"])
    env.reset(seed=1)
    agents = {"player_0": MCTSAgent(16, seed=0), "player_1": GreedyAgent(seed=1)}
    with pytest.raises(TypeError, match="needs the game state"):
        agents["player_0"](env.observe("player_0"))
    final = {}
    for name in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            final[name] = (reward, terminated)
        env.step(None if terminated or truncated else agents[name].act(env.unwrapped.game_state))
    state = env.unwrapped.game_state
    # the game ended by its rules, far from max_moves, and each agent's last reward is its return
    assert state.terminal and state.move_number < env.unwrapped.game.max_moves
    assert {name: r for name, (r, _) in final.items()} == dict(zip(env.possible_agents, state.returns().tolist()))
    assert all(done for _, done in final.values())


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("spec", ["random", "greedy", "mcts:24", "mcts:24:rave=0"])
def test_agents_are_seeded_and_legal(name, spec):
    game = make_game(name, **SMALL[name])
    first = play_game(game, (make_agent(spec), make_agent("random")), seed=5)  # apply() refuses illegal
    again = play_game(game, (make_agent(spec), make_agent("random")), seed=5)
    assert first.record == again.record
    assert read_record(first.record).move_number == first.moves
    swapped = play_game(game, (make_agent("random"), make_agent(spec)), swap_sides=True, seed=6)
    assert read_record(swapped.record).move_number == swapped.moves


def immediate_wins(state):
    player = state.current_player
    return [int(a) for a in state.legal_actions()
            if (lambda c: c.terminal and c.winner >= 0 and c.winner ^ c.flip == player)(state.clone().apply(int(a)))]


def positions_with_a_win_in_one(name, options, count, seed):
    """States of seeded random games where one or two of at least six legal actions win at once."""
    game = make_game(name, **options)
    rng = np.random.default_rng(seed)
    found = []
    for _ in range(400):
        state = game.new_state()
        while not state.terminal and len(found) < count:
            wins = immediate_wins(state) if len(state.legal_actions()) >= 6 else []
            if 1 <= len(wins) <= 2:
                found.append((state.clone(), wins))
                break
            state.apply(int(rng.choice(state.legal_actions())))
        if len(found) == count:
            break
    return found


@pytest.mark.parametrize("name, options", [("lin", {"board_size": 5, "line_length": 4}),
                                           ("linage", {"board_size": 5, "line_length": 3}),
                                           ("lifeline", {"board_size": 3}),
                                           ("asli", {"board_size": 5})])
@pytest.mark.parametrize("rave", [True, False])
def test_mcts_finds_the_move_that_wins_at_once(name, options, rave):
    positions = positions_with_a_win_in_one(name, options, 4, seed=7)
    assert len(positions) >= 2, "the seeded games hold positions with a win in one"
    for k, (state, wins) in enumerate(positions):
        agent = MCTSAgent(256, rave=rave, seed=k)
        assert agent.act(state) in wins, state.render_ansi()


def asli_capture_position():
    """Black to play on 5x5 (first turns done). White's two stones live only through their shared
    point d3; Black on d3 leaves both without a partner: both go to the prison, and White, with
    no stone and no prisoner to take out, has no legal action and loses."""
    picture = ["....X",
               ".XXX.",
               ".XO.O",
               ".XXX.",
               "....."]
    game = make_game("asli", board_size=5)
    data = game.new_state().to_dict()
    data["board"] = [".XO".index(ch) for row in picture for ch in row]
    data.update(first_turn_done=[True, True], seen=[], move_number=6, history=[])
    return game.state_from_dict(data)


def test_the_capture_position_is_what_its_docstring_says():
    state = asli_capture_position()
    d3 = state.game.notation_to_action("d3")
    after = state.clone().apply(d3)
    assert after.prison == [0, 2] and after.terminal and after.winner == 0
    assert immediate_wins(state) == [d3]


@pytest.mark.parametrize("agent", [GreedyAgent(seed=0), MCTSAgent(128, seed=0), MCTSAgent(128, rave=False, seed=0)])
def test_agents_take_the_decisive_capture(agent):
    state = asli_capture_position()
    assert agent.act(state) == state.game.notation_to_action("d3")


def test_mcts_reuses_its_tree_and_honours_a_time_budget():
    game = make_game("lin", board_size=7, line_length=5)
    state = game.new_state()
    agent = MCTSAgent(200, seed=0)
    mine = agent.act(state)
    state.apply(mine)
    after = agent.root.child_for(mine)
    state.apply(int(after.actions[np.argmax(after.visits)]))  # a reply the tree has explored
    agent.act(state)
    assert agent.last_search["reused_visits"] > 0 and agent.last_search["playouts"] == 200
    agent.reset()
    agent.act(state)
    assert agent.last_search["reused_visits"] == 0
    timed = MCTSAgent(None, time_budget=0.05, seed=0)
    timed.act(game.new_state())
    assert timed.last_search["playouts"] >= 1 and timed.last_search["seconds"] < 1.0
    with pytest.raises(ValueError):
        MCTSAgent(None)
    with pytest.raises(ValueError):
        MCTSAgent(16).act(_finished(game))


def _finished(game):
    state = game.new_state()
    rng = np.random.default_rng(0)
    while not state.terminal:
        state.apply(int(rng.choice(state.legal_actions())))
    return state


def test_mcts_state_is_left_unchanged():
    state = make_game("asli", board_size=5).new_state()
    before = state.to_json()
    MCTSAgent(64, seed=1).act(state)
    assert state.to_json() == before
    with pytest.raises(IllegalActionError):
        state.apply(10 ** 6)


def test_agent_base_class_contract():
    with pytest.raises(TypeError):
        Agent(seed=0)  # abstract: an agent must say how it acts
    a, b = RandomAgent(3), RandomAgent(3)
    state = make_game("linage", board_size=4, line_length=2).new_state()
    assert [a.act(state) for _ in range(10)] == [b.act(state) for _ in range(10)]


def test_rave_constant_comes_from_the_spec():
    assert make_agent("mcts:16:k=30").rave_k == 30.0 and make_agent("mcts:16").rave_k == 300.0
    with pytest.raises(ValueError):
        make_agent("mcts:16:k=0")


def test_uniform_playouts_come_from_the_spec_and_reach_the_playouts():
    assert make_agent("mcts:16:uniform=1").uniform_playouts and not make_agent("mcts:16").uniform_playouts
    with pytest.raises(ValueError):
        make_agent("mcts:16:uniform=2")
    # the same seeded search on Lifeline sees different playouts with and without the flag
    state = make_game("lifeline", board_size=4).new_state()
    for action in (0, 5, 20, 30):
        state.apply(int(state.legal_actions()[action % len(state.legal_actions())]))
    roots = []
    for spec in ("mcts:64:uniform=0", "mcts:64:uniform=1"):
        agent = make_agent(spec, seed=1)
        agent.act(state)
        roots.append(agent.root.value.copy())
    assert not np.array_equal(*roots)
