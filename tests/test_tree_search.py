"""The compiled, batched tree search (agents/az/tree_search.py) against the plain reference search of
tests/reference/search_reference.py, and its contract on every game: legal actions only, policy
targets over the legal actions, the envs' truncation inside the tree."""
from __future__ import annotations

import zlib

import numpy as np
import pytest

from types import SimpleNamespace

from agents.az.tree_search import TreeSearch, choose_interior_gumbel, considered_visits, new_tree
from territory_envs import make_game
from tests.reference import search_reference as ref

TINY = {"lin": {"board_size": 5, "line_length": 3}, "linage": {"board_size": 4},
        "lifeline": {"board_size": 3}, "asli": {"board_size": 4}}


def stub_network(planes, masks):
    """A fixed network that still tells positions apart: priors and value from a hash of the planes."""
    priors = np.zeros(masks.shape, dtype=np.float64)
    values = np.zeros(len(planes), dtype=np.float64)
    for i, (p, m) in enumerate(zip(planes, masks)):
        h = zlib.crc32(np.ascontiguousarray(p).tobytes())
        weights = (1 + (h + np.arange(m.shape[0]) * 2654435761) % 7) * (m != 0)
        priors[i] = weights / weights.sum()
        values[i] = (h % 201 - 100) / 100
    return priors, values


def random_positions(game, count, seed, spread=12):
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        state = game.new_state()
        for _ in range(int(rng.integers(0, spread))):
            if state.over:
                break
            state.apply(int(rng.choice(state.legal_actions())))
        if not state.over:
            out.append(state)
    return out


def loaded_search(game, states, simulations, **options):
    search = TreeSearch(game, len(states), simulations, stub_network, **options)
    for b, state in enumerate(states):
        search.load(b, state)
    return search


def test_sequential_halving_budget():
    # 16 actions over 64 simulations in four phases of 16: 16 actions x 1 visit, the best 8 x 2 more,
    # 4 x 4 more, 2 x 8 more (the last simulation goes to an action with 14 visits)
    seq = considered_visits(16, 64)
    assert len(seq) == 64 and seq[:16] == [0] * 16 and seq[16:32] == [1] * 8 + [2] * 8
    assert seq[32:48] == [3] * 4 + [4] * 4 + [5] * 4 + [6] * 4 and seq[-2:] == [14, 14]
    assert seq == ref.halving_sequence(16, 64)
    assert considered_visits(1, 5) == [0, 1, 2, 3, 4]


def test_interior_gumbel_choice_equals_the_full_improved_policy():
    # the compiled choice takes exponentials of the visited actions only; the reference computes
    # the improved policy over every legal action: the same action on random node statistics,
    # with ties of priors, zero priors among the legal actions and unvisited actions of every kind
    rng = np.random.default_rng(5)
    actions = 20
    tree = new_tree(1, 1, actions)
    scratch = np.zeros(actions)
    for trial in range(400):
        mask = (rng.random(actions) < 0.7).astype(np.int8)
        mask[rng.integers(actions)] = 1
        visits = np.where(rng.random(actions) < [0.0, 0.3, 0.7, 1.0][trial % 4], rng.integers(1, 9, actions), 0) * mask
        prior = rng.choice([0.0, 0.05, 0.1, 0.3], actions) * mask if trial % 3 else rng.random(actions) * mask
        if prior.sum() == 0:
            prior[np.flatnonzero(mask)[0]] = 1.0
        prior = prior / prior.sum()
        value_sum = visits * rng.uniform(-1, 1, actions)
        tree.child_visits[0, 0], tree.child_value_sum[0, 0], tree.prior[0, 0] = visits, value_sum, prior
        tree.raw_value[0, 0] = rng.uniform(-1, 1)
        node = SimpleNamespace(legal=np.flatnonzero(mask), visits=visits, value_sum=value_sum, prior=prior,
                               value=tree.raw_value[0, 0])
        pi = ref.improved_policy(node)
        expected = ref._first_best({a: pi[a] - visits[a] / (1 + visits.sum()) for a in node.legal})
        assert choose_interior_gumbel(tree, 0, 0, mask, scratch) == expected, trial


@pytest.mark.parametrize("name", sorted(TINY))
def test_gumbel_matches_the_reference(name):
    game = make_game(name, **TINY[name])
    states = random_positions(game, 6, seed=1)
    search = loaded_search(game, states, 24, rule="gumbel", considered=8, seed=3)
    policy, best = search.run()
    for b, state in enumerate(states):
        visits, target, action = ref.gumbel_search(state.clone(), stub_network, 24, search.tree.gumbel[b], 8)
        assert (search.tree.child_visits[b, 0] == visits).all(), name
        np.testing.assert_allclose(policy[b], target, atol=1e-9)
        assert best[b] == action


@pytest.mark.parametrize("rule", ["gumbel", "puct"])
def test_trees_search_on_their_own_clocks(rule):
    # trees started at different rounds, with different budgets, each reach the result of the same
    # search alone: a tree's search does not depend on what the others are doing
    game = make_game("asli", **TINY["asli"])
    states = random_positions(game, 3, seed=4)
    budgets, streams = np.array([12, 5, 9]), np.array([11, 22, 33], dtype=np.uint64)
    alone = []
    for b, state in enumerate(states):
        search = loaded_search(game, [state], 12, rule=rule)
        search.streams[0] = streams[b]
        policy, best = search.run(budgets=budgets[b:b + 1])
        alone.append((search.tree.child_visits[0, 0].copy(), policy[0].copy(), best[0]))
    search = loaded_search(game, states, 12, rule=rule)
    search.streams[:] = streams
    started, found, rounds = {0: 0, 1: 3, 2: 4}, {}, 0
    while len(found) < 3:
        for b in [b for b, at in started.items() if at == rounds]:
            search.start([b], budgets)
        done = search.step()
        if len(done):
            policy, best = search.results(done)
            for b in done:
                found[b] = (search.tree.child_visits[b, 0].copy(), policy[b].copy(), best[b])
        rounds += 1
    for b in range(3):
        assert (found[b][0] == alone[b][0]).all() and found[b][0].sum() == budgets[b], b
        np.testing.assert_allclose(found[b][1], alone[b][1], atol=1e-12)
        assert found[b][2] == alone[b][2]


@pytest.mark.parametrize("name", sorted(TINY))
def test_puct_matches_the_reference(name):
    game = make_game(name, **TINY[name])
    states = random_positions(game, 6, seed=2)
    search = loaded_search(game, states, 40, rule="puct", c_puct=1.5, fpu=0.2)
    policy, best = search.run(budgets=[40, 0, 5, 40, 17, 40])
    for b, (state, sims) in enumerate(zip(states, [40, 0, 5, 40, 17, 40])):
        visits = ref.puct_search(state.clone(), stub_network, sims)
        assert (search.tree.child_visits[b, 0] == visits).all(), name
        assert policy[b].sum() == pytest.approx(1.0)
        assert state.legal_mask()[best[b]]


@pytest.mark.parametrize("name", sorted(TINY))
@pytest.mark.parametrize("rule", ["gumbel", "puct"])
def test_legal_actions_and_targets_on_random_positions(name, rule):
    game = make_game(name, **TINY[name])
    states = random_positions(game, 32, seed=5, spread=30)  # swaps and double moves among them
    search = loaded_search(game, states, 16, rule=rule, seed=7)
    policy, best = search.run()
    for b, state in enumerate(states):
        mask = state.legal_mask()
        assert (search.root_mask[b] == mask).all()
        assert (search.root_obs[b] == state.observation(state.current_player)).all()
        assert mask[best[b]], (name, b)
        assert policy[b].sum() == pytest.approx(1.0) and (policy[b][mask == 0] == 0).all()
        assert search.tree.child_visits[b, 0].sum() == 16


def test_truncation_inside_the_tree():
    game = make_game("lin", board_size=5, line_length=3, max_moves=6)
    state = game.new_state()
    for _ in range(4):
        state.apply(int(state.legal_actions()[0]))
    search = TreeSearch(game, 1, 64, stub_network, rule="puct")
    search.load(0, state)
    search.run()
    t = search.tree
    used = t.num_nodes[0]
    depth = np.zeros(used, dtype=int)
    for node in range(1, used):
        depth[node] = depth[t.parent[0, node]] + 1
    assert depth.max() == 2  # moves 5 and 6, then the envs truncate
    deepest = np.flatnonzero(depth == 2)
    assert t.over[0, deepest].all() and (t.raw_value[0, deepest] == 0).all()
    assert search.rows.move_number[deepest].max() == 6


def test_self_play_roots_play_to_the_end():
    game = make_game("lin", board_size=5, line_length=3)
    search = TreeSearch(game, 4, 8, stub_network, seed=0)
    search.new_games()
    over = np.zeros(4, dtype=bool)
    for _ in range(game.max_moves):
        policy, best = search.run()
        best = np.where(over, -1, best)
        over = search.play(best).copy() | over
        if over.all():
            break
    assert over.all()


def test_root_noise_is_mixed_into_the_legal_priors():
    game = make_game("lin", board_size=5, line_length=3)
    states = random_positions(game, 3, seed=4)
    search = loaded_search(game, states, 4, rule="puct")
    noise = np.random.default_rng(0).dirichlet(np.ones(game.num_actions), size=3)
    search.run(root_noise=noise, noise_fraction=0.25)
    priors, _ = stub_network(np.stack([s.observation(s.current_player) for s in states]),
                             np.stack([s.legal_mask() for s in states]))
    for b, state in enumerate(states):
        legal = state.legal_mask() != 0
        expected = 0.75 * priors[b] + 0.25 * np.where(legal, noise[b], 0.0)
        np.testing.assert_allclose(search.tree.prior[b, 0], expected / expected.sum())
        assert (search.tree.prior[b, 0][~legal] == 0).all()
