"""The batched single-agent env (territory_envs.single_vector) against the one-game env it batches.

The differential test steps ``B`` games of :class:`SingleAgentVectorEnv` beside ``B``
:class:`SingleAgentEnv` with the same deterministic agent and opponent, and compares every output:
observations, masks, rewards, ends, the last observation and info of every episode, the seats.
"""
import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import territory_envs  # noqa: F401  (registers the ids)
from territory_envs import IllegalActionError
from territory_envs.single import SingleAgentEnv
from territory_envs.single_vector import SingleAgentVectorEnv

CASES = [
    ("lin", dict(board_size=5, line_length=3)),
    ("lin", dict(board_size=5, line_length=3, komi=1, max_moves=9)),  # truncations
    ("linage", dict(board_size=5, line_length=3)),
    ("lifeline", dict(board_size=3)),
    ("lifeline", dict(board_size=3, pie="weak")),
    ("asli", dict(board_size=5)),
    ("asli", dict(board_size=5, komi=1, max_moves=12)),
]


def _pick(mask_row, key) -> int:
    legal = np.flatnonzero(mask_row)
    return int(legal[int(key) % len(legal)])


def opponent_one(obs, mask) -> int:
    """A deterministic opponent of one game: the legal action picked by a hash of its view."""
    return _pick(mask, obs["observation"].astype(np.int64).sum() * 7 + 3)


def opponent_batched(obs, masks) -> np.ndarray:
    keys = obs["observation"].astype(np.int64).sum(axis=(1, 2, 3)) * 7 + 3
    return np.array([_pick(m, k) for m, k in zip(masks, keys)], dtype=np.int64)


@pytest.mark.parametrize("game,options", CASES, ids=[f"{g}-{i}" for i, (g, _) in enumerate(CASES)])
def test_batched_single_agent_env_matches_the_one_game_env(game, options):
    b, steps = 6, 70
    vec = SingleAgentVectorEnv(game, num_envs=b, opponent=opponent_batched, **options)
    singles = [SingleAgentEnv(game, opponent=opponent_one, **options) for _ in range(b)]
    obs, info = vec.reset(seed=3)
    single_obs, single_info = [], []
    for e, env in enumerate(singles):
        o, i = env.reset(seed=0)
        if e % 2:  # slot e of "alternate" starts on seat e % 2
            o, i = env.reset()
        single_obs.append(o)
        single_info.append(i)

    def same_as_singles(obs, info):
        for e in range(b):
            np.testing.assert_array_equal(obs["observation"][e], single_obs[e]["observation"])
            np.testing.assert_array_equal(obs["action_mask"][e], single_obs[e]["action_mask"])
            assert info["side"][e] == single_info[e]["side"]
            assert info["opponent_moves"][e] == single_info[e]["opponent_moves"]

    same_as_singles(obs, info)
    ends = 0
    for t in range(steps):
        actions = np.array([_pick(obs["action_mask"][e], 5 * t + e) for e in range(b)])
        obs, rewards, terminated, truncated, info = vec.step(actions)
        for e, env in enumerate(singles):
            o, r, te, tr, i = env.step(int(actions[e]))
            assert (rewards[e], terminated[e], truncated[e]) == (r, te, tr), (t, e)
            if te or tr:
                ends += 1
                assert info["_final_obs"][e] and info["_final_info"][e]
                np.testing.assert_array_equal(info["final_obs"][e]["observation"], o["observation"])
                np.testing.assert_array_equal(info["final_obs"][e]["action_mask"], o["action_mask"])
                for key in ("side", "winner", "score", "opponent_moves"):
                    assert info["final_info"][key][e] == i[key], (key, t, e)
                o, i = env.reset()
            else:
                assert "_final_obs" not in info or not info["_final_obs"][e]
            single_obs[e], single_info[e] = o, i
        same_as_singles(obs, info)
    assert ends >= b  # every slot finished episodes, in both seats over the batch


def test_make_vec_builds_the_compiled_form_with_its_options():
    envs = gymnasium.make_vec("territory_envs/Asli-v0", num_envs=4, board_size=5, obs_dtype="float32")
    inner = envs.unwrapped if hasattr(envs, "unwrapped") else envs
    assert isinstance(inner, SingleAgentVectorEnv)
    assert inner.game.options["board_size"] == 5
    assert inner.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    obs, info = envs.reset(seed=0)
    assert obs["observation"].dtype == np.float32 and obs["observation"].shape == (4, 5, 5, inner.game.obs_shape[-1])
    assert envs.observation_space["observation"].shape == obs["observation"].shape
    assert envs.single_action_space.n == inner.game.num_actions
    assert set(k for k in info if not k.startswith("_")) == {"side", "winner", "score", "opponent_moves"}
    with pytest.raises(ValueError, match="board_size"):
        gymnasium.make_vec("territory_envs/Lin-v0", num_envs=2, board_size=1)
    with pytest.raises(ValueError, match="seat"):
        gymnasium.make_vec("territory_envs/Lin-v0", num_envs=2, seat=2)


def test_random_opponent_is_seeded_and_the_agent_always_moves():
    def run():
        envs = SingleAgentVectorEnv("linage", num_envs=16, board_size=5, line_length=3)
        obs, _ = envs.reset(seed=11)
        out = []
        for t in range(40):
            actions = np.array([_pick(m, t) for m in obs["action_mask"]])
            obs, rewards, terminated, truncated, info = envs.step(actions)
            assert (envs.batch.agents_to_move == envs.player).all()
            assert obs["action_mask"].any(axis=1).all()
            assert set(np.unique(rewards)) <= {-1.0, 0.0, 1.0}
            assert not rewards[~(terminated | truncated)].any()
            out.append((obs["observation"].copy(), rewards.copy()))
        return out
    first, second = run(), run()
    for (o1, r1), (o2, r2) in zip(first, second):
        np.testing.assert_array_equal(o1, o2)
        np.testing.assert_array_equal(r1, r2)


def test_seats_fixed_and_random():
    for seat in (0, 1):
        envs = SingleAgentVectorEnv("lin", num_envs=4, seat=seat, board_size=5, line_length=3)
        _, info = envs.reset(seed=0)
        assert (info["side"] == seat).all()
    envs = SingleAgentVectorEnv("lin", num_envs=64, seat="random", board_size=5, line_length=3)
    _, info = envs.reset(seed=0)
    assert 0 < info["side"].sum() < 64


def test_illegal_actions_are_refused_and_change_nothing():
    envs = SingleAgentVectorEnv("asli", num_envs=3, board_size=5)
    obs, _ = envs.reset(seed=0)
    before = [envs.batch.get_state(e).to_dict() for e in range(3)]
    actions = np.array([_pick(m, 0) for m in obs["action_mask"]])
    actions[1] = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    with pytest.raises(IllegalActionError, match=r"games \[1\]"):
        envs.step(actions)
    for bad in (np.array([-1, 0, 0]), actions.astype(float), actions[:2]):
        with pytest.raises(IllegalActionError):
            envs.step(bad)
    assert [envs.batch.get_state(e).to_dict() for e in range(3)] == before


def test_a_bad_opponent_is_named():
    with pytest.raises(ValueError, match="opponent"):
        SingleAgentVectorEnv("lin", num_envs=2, opponent=42)
    envs = SingleAgentVectorEnv("lin", num_envs=2, seat=1, opponent=lambda obs, masks: np.full(len(masks), -5),
                                board_size=5, line_length=3)
    with pytest.raises(IllegalActionError, match="opponent"):
        envs.reset(seed=0)


def test_an_agent_spec_opponent_plays_through_the_state_api():
    envs = SingleAgentVectorEnv("lifeline", num_envs=3, opponent="mcts:8", board_size=3)
    obs, info = envs.reset(seed=0)
    for t in range(12):
        obs, rewards, terminated, truncated, info = envs.step(np.array([_pick(m, t) for m in obs["action_mask"]]))
        assert (envs.batch.agents_to_move == envs.player).all()


def test_the_batch_refuses_a_sit_out_action_from_users():
    from territory_envs.vector import make_vec
    batch = make_vec("lin", num_envs=2, board_size=5, line_length=3)
    batch.reset(seed=0)
    with pytest.raises(IllegalActionError):
        batch.step(np.array([-1, 0]))


GREEDY_CASES = [("lin", dict(board_size=5, line_length=3)), ("linage", dict(board_size=5, line_length=3)),
                ("lifeline", dict(board_size=5)), ("lifeline", dict(board_size=4, pie="komi", komi=2)),
                ("asli", dict(board_size=4))]


@pytest.mark.parametrize("game,options", GREEDY_CASES, ids=[g for g, _ in GREEDY_CASES])
def test_batched_greedy_chooses_what_the_greedy_agent_scores_best(game, options):
    """Every batched greedy choice is in the argmax set of ``agents.greedy.evaluate`` over the legal
    actions, in positions along random games; a small ``max_pairs`` makes it work in chunks."""
    from agents.greedy import evaluate
    from territory_envs.lookahead import BatchGreedy
    from territory_envs.vector import make_vec
    b = 8
    batch = make_vec(game, b, **options)
    batch.reset(seed=3)
    greedy = BatchGreedy(game, batch.game.options, max_pairs=37)
    rng = np.random.default_rng(0)
    not_all_ties = 0
    for step in range(30):
        need = rng.random(b) < 0.75
        before = [batch.get_state(e).to_dict() for e in range(b)]
        chosen = greedy.choose(batch, need, rng)
        assert [batch.get_state(e).to_dict() for e in range(b)] == before
        assert (chosen[~need] == -1).all()
        for e in np.flatnonzero(need):
            state = batch.get_state(int(e))
            values = {int(a): evaluate(state.clone().apply(int(a)), state.current_player)
                      for a in state.legal_actions()}
            assert values[int(chosen[e])] == max(values.values()), (step, e)
            not_all_ties += len(set(values.values())) > 1
        batch.step(batch.sample_actions())
    assert not_all_ties > 10  # the positions did tell the actions apart


def test_the_greedy_opponent_beats_a_random_agent():
    envs = gymnasium.make_vec("territory_envs/Lifeline-v0", num_envs=32, opponent="greedy", board_size=5)
    obs, _ = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    results, opponent_moves = [], 0
    while len(results) < 64:
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        obs, rewards, terminated, truncated, info = envs.step(actions)
        assert (envs.unwrapped.batch.agents_to_move == envs.unwrapped.player).all()
        opponent_moves += int(info["opponent_moves"].sum())
        results.extend(rewards[terminated | truncated].tolist())
    assert opponent_moves > len(results)
    assert np.mean(results) < -0.5  # the agent (random) loses most games
