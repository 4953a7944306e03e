"""Lin env specifics: the observation planes mean what the docstring table says, and observations
are drawn from the observer's side. The contract shared by all games is in test_env_contract.py."""
import numpy as np

from territory_envs import lin_v0, make_game


def test_agents_sides_and_swap():
    env = lin_v0.env(board_size=5, line_length=4)
    env.reset()
    assert env.possible_agents == ["player_0", "player_1"]
    assert env.agent_selection == "player_0"
    assert env.infos["player_0"]["side"] == 0 and env.infos["player_1"]["side"] == 1
    env.reset(options={"swap_sides": True})
    assert env.agent_selection == "player_1"
    assert env.infos["player_1"]["side"] == 0
    # observations are drawn from the observer's side: player_1 (Black) sees its stone as own
    env.step(12)
    assert env.observe("player_1")["observation"][2, 2, 0] == 1
    assert env.observe("player_0")["observation"][2, 2, 1] == 1
    assert env.observe("player_1")["observation"][0, 0, 8] == 0  # side plane: Black
    assert env.observe("player_1")["action_mask"].sum() == 0  # not on move


def test_observation_planes_mean_what_the_table_says():
    """Every plane recomputed by hand from the board and the living domains."""
    game = make_game("lin", board_size=7, line_length=4, komi=3)
    state = game.new_state()
    rng = np.random.default_rng(5)
    for _ in range(25):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    for player in (0, 1):
        side = state.side_of(player)
        obs = state.observation(player).reshape(49, -1)
        board = state.board
        own, opp = side + 1, 2 - side
        alive_own, alive_opp = state.alive[side], state.alive[1 - side]
        assert (obs[:, 0] == (board == own)).all() and (obs[:, 1] == (board == opp)).all()
        assert (obs[:, 2] == (board == 0)).all() and (obs[:, 3] == 1).all()
        assert (obs[:, 4] == alive_own).all() and (obs[:, 5] == alive_opp).all()
        assert (obs[:, 6] == (alive_own & alive_opp)).all()
        legal = (board == 0) & alive_own if side == state.to_move else np.zeros(49, bool)
        assert (obs[:, 7] == legal).all()
        assert (obs[:, 8] == side).all()
        assert (obs[:, 9] == round(100 * 3 * (1 if side else -1) / 49)).all()
